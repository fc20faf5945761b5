import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Hono } from "hono";

const require = createRequire(import.meta.url);
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Mutual fund distribution service: API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: "/openapi.json",
      dom_id: "#docs",
      deepLinking: true,
      persistAuthorization: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: "StandaloneLayout"
    });
  </script>
</body>
</html>`;

/** The interactive API reference (Swagger UI, served from the installed package: no CDN). */
export function mountDocs<E extends object>(app: Hono<E>): void {
  const dir = path.dirname(require.resolve("swagger-ui-dist/package.json"));
  const cache = new Map<string, string>();
  app.get("/docs", (c) => c.html(PAGE));
  app.get("/docs/assets/:file", async (c) => {
    const file = c.req.param("file");
    const type = ASSETS[file];
    if (!type) return c.notFound();
    let content = cache.get(file);
    if (content === undefined) {
      content = await readFile(path.join(dir, file), "utf8");
      cache.set(file, content);
    }
    return c.body(content, 200, { "Content-Type": type, "Cache-Control": "public, max-age=86400" });
  });
}
