// ESLint (flat config): its recommended rules over every JavaScript file of the project, with
// the globals of where each file runs. `npm run lint`; tests/test_lint_js.py runs it in the suite.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["site/", ".venv/", "node_modules/", ".cache/", "build/", "dist/", "screenshots/"] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    files: ["site_assets/**/*.{js,mjs}"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      // document$: Material for MkDocs' observable of page loads (instant navigation included).
      globals: { ...globals.browser, document$: "readonly" },
    },
  },
  {
    files: ["site_assets/calculators/worker.mjs"],
    languageOptions: { globals: globals.worker },
  },
  {
    // A classic script (service workers as modules are not yet everywhere), served as /sw.js.
    files: ["site_assets/offline/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    // A classic script: it must run before Material's bundle, which is a classic script too.
    files: ["site_assets/search/index-on-demand.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // Run by Node: the tests' scripts, the config, the build's snapshot maker.
    files: ["tests/**/*.mjs", "roofline_site/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
