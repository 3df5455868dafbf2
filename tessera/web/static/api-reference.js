// Starts Swagger UI for the document named by the page (no inline script: the pages' CSP forbids it).
window.addEventListener("load", function () {
  var spec = document.body.getAttribute("data-spec");
  window.ui = SwaggerUIBundle({
    url: spec,
    dom_id: "#swagger-ui",
    deepLinking: true,
    // Credentials typed into "Authorize" stay in this page's memory, never in browser storage.
    persistAuthorization: false,
    displayRequestDuration: true,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout"
  });
});
