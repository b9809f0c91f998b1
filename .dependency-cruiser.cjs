/* global module */
// No import circles in the shop's code (issue 35, ADR 0059). `npm run circles`
// runs this; scripts/circles.test.ts runs the same rule through dependency-cruiser's
// API in the unit stage of `npm test`, so a circle fails CI.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A module reaches itself through its imports. Move what the two share into a module of its own that both import (a hook never imports its page's module; root.tsx's data types live in app/lib/).",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // React Router's generated route types, and the build.
    exclude: { path: "(^|/)(\\.react-router|build|node_modules)/" },
    // Type-only imports count: a circle through a type still ties the modules' shapes together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
