"""HTTP handlers bound by operationId from the OpenAPI documents. Thin: parse, call one service, shape."""
