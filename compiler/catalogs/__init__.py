"""YAML catalogs: loading with spans (ruamel.yaml), schema validation (jsonschema), typed readers."""
