// ESLint for the site's own scripts (docs/assets/javascripts: classic browser scripts, each an
// immediately invoked function) and their unit tests (tests/js: node). Run by scripts/dev.sh test.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["docs/assets/javascripts/**/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      globals: { ...globals.browser, document$: "readonly", module: "readonly" },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "eqeqeq": "error",
      "no-implied-eval": "error",
      "no-eval": "error",
    },
  },
  {
    files: ["tests/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: { ...globals.node } },
  },
];
