// /docs: Swagger UI (swagger-ui-dist, served by the gateway itself) over /api/v1/openapi.json.
window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The document's servers entry is relative; "Try it out" calls this gateway with the key given under Authorize.
  tryItOutEnabled: false,
});
