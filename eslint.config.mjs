// ESLint for the site's own scripts (docs/assets/javascripts: native ES modules, but palette.js,
// a classic script written inline into the header) and their unit tests (tests/js: node modules).
// Run by scripts/dev.sh test.
import js from "@eslint/js";
import globals from "globals";

const rules = {
  "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
  "eqeqeq": "error",
  "no-implied-eval": "error",
  "no-eval": "error",
  "no-var": "error",
  "prefer-const": "error",
};

export default [
  js.configs.recommended,
  {
    files: ["docs/assets/javascripts/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, document$: "readonly" },
    },
    rules,
  },
  {
    // Written inline into the header and run while it is parsed (a module would wait for the
    // whole page); node's tests read it through `module.exports`.
    files: ["docs/assets/javascripts/palette.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser, module: "readonly" } },
  },
  {
    files: ["tests/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules,
  },
];
