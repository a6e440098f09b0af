"""Emitters: the bundle (JSON + schema validation), images (Pillow), the manifest."""
