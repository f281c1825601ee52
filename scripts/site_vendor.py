"""Third-party browser code the site ships, copied into the built site from its pinned npm package.

The review scheduler of the practice mode is ts-fsrs, pinned exactly in package.json (and
package-lock.json). The build copies its ES module build (dist/index.mjs, which the site's
storage.js imports when a rating is near) and its licence from node_modules/ into
site/assets/vendor/<package>/, so that what the site runs
is what the lock file pins and the unit tests (`node --test tests/js`) ran: no CDN, no copy in the
repository that could drift from the pin. node_modules/ comes from `npm ci`; `scripts/dev.sh
serve` runs `npm ci --omit=dev` when the package is missing or another version, so the README's
serve command still works on a fresh clone.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from snippet_engine.errors import ProjectError

# package name -> files to ship, relative to the package's folder in node_modules/
SHIPPED: dict[str, tuple[str, ...]] = {"ts-fsrs": ("dist/index.mjs", "LICENSE")}


class VendorError(ProjectError):
    """A shipped package is missing from node_modules/, or is not the pinned version."""


def pinned_version(root: Path, package: str) -> str:
    """The exact version package.json pins in its dependencies."""
    manifest = json.loads((root / "package.json").read_text(encoding="utf-8"))
    version = manifest.get("dependencies", {}).get(package)
    if not isinstance(version, str) or not version[:1].isdigit():
        raise VendorError(f"package.json: {package} is not pinned to an exact version in 'dependencies'. "
                          f"Pin it: npm install --save-exact {package}@<version>.")
    return version


def copy_shipped(root: Path, site_dir: Path) -> list[Path]:
    """Copy every shipped package's files into site_dir/assets/vendor/<package>/; the files
    written. Fails, saying how to fix it, when a package is absent or not the pinned version."""
    written: list[Path] = []
    for package, files in SHIPPED.items():
        want = pinned_version(root, package)
        folder = root / "node_modules" / package
        fix = "Run `npm ci --omit=dev` (scripts/dev.sh serve and test do it)."
        try:
            have = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
        except (OSError, ValueError, KeyError):
            raise VendorError(f"node_modules/{package} is missing: the site ships its browser build. "
                              f"{fix}") from None
        if have != want:
            raise VendorError(f"node_modules/{package} is {have}, package.json pins {want}. {fix}")
        dest = site_dir / "assets" / "vendor" / package
        dest.mkdir(parents=True, exist_ok=True)
        for rel in files:
            target = dest / Path(rel).name
            shutil.copyfile(folder / rel, target)
            written.append(target)
    return written
