// What Material for MkDocs defines for the page's scripts: types for the type check
// (tsconfig.json) only; the browser never loads this file. The site's own modules share nothing
// through `window`: they import each other.

/** Material's observable of the document, which emits once the page is set up. */
declare const document$: { subscribe(callback: () => void): void } | undefined;

interface Window {
  /** Material's storage helpers (partials/javascripts/base.html), scoped to the site's path. */
  __md_get?: (key: string) => unknown;
  __md_set?: (key: string, value: unknown) => void;
}
