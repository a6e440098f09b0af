"""Benchmark: drawing maps.

Times `render_map` + PNG encoding on the largest real map of the shipped packs (when the
content compiles) and on a synthetic 30x30 map with mixed terrain, interior walls, doors,
hidden tiles and full sight/reach overlays. The baseline, measured in the same run, is
Pillow alone filling one rectangle per square and encoding the PNG: the floor any
renderer of that many squares pays.

Run: .venv/bin/python -m bench.render
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from compiler.emit.images.map import boundary_edges, render_map
from compiler.emit.images.pictures import MapPicture, SpawnPoint, TileOutline, Token
from compiler.emit.images.primitives import png_bytes
from compiler.geometry.board import Board, Door
from compiler.catalogs.terrain import PLAIN, TerrainRule
from bench import best_of

ROOT = Path(__file__).resolve().parents[1]
SCALE = 32



def synthetic(n: int = 30) -> MapPicture:
    rules = {
        "plain": PLAIN,
        "water": TerrainRule("water", "~", enter_cost=2),
        "obstacle": TerrainRule("obstacle", "#", blocks_movement=True, blocks_sight=True),
        "pit": TerrainRule("pit", "o", sight="adjacent_only"),
        "lava": TerrainRule("lava", "^"),
    }
    cycle = ("plain",) * 6 + ("water", "obstacle", "pit", "lava")
    spaces = tuple((x, y) for y in range(n) for x in range(n))
    terrain = tuple(cycle[(x * 7 + y * 3) % len(cycle)] for x, y in spaces)
    walls = set(boundary_edges(spaces))
    walls |= {((10, y), (10, y + 1)) for y in range(n) if y % 6}  # an inner wall with gaps
    door = Door("d", frozenset({((10, 6), (10, 7))}), False, "yellow")
    walls -= door.edges
    board = Board(spaces, terrain, rules, frozenset(walls), (door,))
    tiles = tuple(
        TileOutline(f"T{i}", tuple((x, y) for y in range(n) for x in range(i * 10, i * 10 + 10)), hidden=(i == 2))
        for i in range(3)
    )
    return MapPicture(
        board,
        tiles=tiles,
        tokens=(Token((3, 3), "search"),),
        spawns=(SpawnPoint(((5, 5), (6, 5)), "OG", "master", "3+"),),
        seen=frozenset(spaces[::2]),
        origin=(0, 0),
        reachable=frozenset(spaces[::3]),
        blockers=frozenset({(4, 4)}),
    )


def largest_real_map() -> tuple[str, MapPicture] | None:
    content = ROOT / "content"
    if not content.is_dir():
        return None
    from compiler.emit.images.quest import quest_maps
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(content)], Options(images=False))
    best = None
    for model in result.models:
        for map_id, picture in quest_maps(model).items():
            if best is None or len(picture.board.spaces) > len(best[1].board.spaces):
                best = (f"{model.pack.id}/{map_id}", picture)
    return best


def baseline(picture: MapPicture) -> bytes:
    xs = [c[0] for c in picture.board.spaces]
    ys = [c[1] for c in picture.board.spaces]
    w, h = (max(xs) - min(xs) + 3) * SCALE, (max(ys) - min(ys) + 3) * SCALE
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for x, y in picture.board.spaces:
        l, t = (x - min(xs) + 1) * SCALE, (y - min(ys) + 1) * SCALE
        d.rectangle([l, t, l + SCALE - 1, t + SCALE - 1], fill=(200, 200, 200), outline=(0, 0, 0))
    return png_bytes(img)


def main() -> None:
    cases = []
    real = largest_real_map()
    if real is not None:
        cases.append(real)
    else:
        print("no compiled real maps found (content/ missing or without quests)")
    cases.append(("synthetic 30x30 with overlays", synthetic(30)))
    print(f"{'map':40} {'spaces':>7} {'render+png ms':>14} {'baseline ms':>12} {'ratio':>6}")
    for name, picture in cases:
        full = best_of(lambda: png_bytes(render_map(picture, scale=SCALE)))
        base = best_of(lambda: baseline(picture))
        print(f"{name:40} {len(picture.board.spaces):7d} {full * 1000:14.1f} {base * 1000:12.1f} {full / base:6.1f}")


if __name__ == "__main__":
    main()
