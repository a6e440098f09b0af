"""Map geometry: tiles, placement, walls, overlap (shapely), space graph (networkx), sight (numpy).

Import submodules directly; this package imports nothing heavy on its own.
"""
