"""The HTTP routes, one blueprint per concern (see openapi.yaml for the contract)."""
