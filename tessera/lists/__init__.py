"""The list contract every list of the session surface answers by (dynamic pages, the audit search,
data sources, the Open Platform administration lists): shared by the features, so it lives below them."""
