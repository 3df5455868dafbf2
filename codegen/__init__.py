"""Build-time generators: the SDKs, the Postman collections and the generated documentation
pages. ``tessera generate`` runs them; the service never imports this package."""
