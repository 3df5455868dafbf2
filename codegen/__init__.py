"""Build-time generators: the SDKs, the Postman collections and the generated documentation
pages. Only the ``tessera generate`` command imports this package; the service never does."""
