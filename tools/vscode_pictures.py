"""Draw the VS Code package's icon and README pictures (editors/vscode/images/): `.venv/bin/python tools/vscode_pictures.py`."""
import subprocess, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from PIL import Image, ImageDraw
from compiler.emit.images import style as S
out = Path(ROOT / 'editors' / 'vscode' / 'images')
# icon: a 4x4 tile with walls, an opening, a hero start and a token
img = Image.new('RGB', (128, 128), (250, 246, 236))
d = ImageDraw.Draw(img)
cell = 26; x0 = 12
for r in range(4):
    for c in range(4):
        d.rectangle([x0 + c*cell, x0 + r*cell, x0 + (c+1)*cell, x0 + (r+1)*cell], fill=(236, 226, 204), outline=(200, 190, 170))
d.rectangle([x0, x0, x0 + 4*cell, x0 + 4*cell], outline=(30, 30, 30), width=5)
d.line([(x0 + cell, x0 + 4*cell), (x0 + 3*cell, x0 + 4*cell)], fill=(236, 226, 204), width=6)
d.ellipse([x0 + 4, x0 + 4, x0 + cell - 4, x0 + cell - 4], outline=(20, 140, 60), width=3)
cx, cy, h = x0 + 2.5*cell, x0 + 1.5*cell, 11
d.polygon([(cx, cy-h), (cx+h, cy), (cx, cy+h), (cx-h, cy)], fill=(220, 40, 40), outline=(30, 30, 30))
d.ellipse([x0 + 2*cell + 4, x0 + 2*cell + 4, x0 + 3*cell - 4, x0 + 3*cell - 4], fill=(200, 30, 30), outline=(30,30,30))
img.save(out / 'icon.png', optimize=True)
# the map preview: what `questc render` (and the editor's preview) draws for First Blood
subprocess.run([str(ROOT / '.venv' / 'bin' / 'questc'), 'render', str(ROOT / 'content' / 'd2e-quests'), '--quest', 'first_blood', '-o', str(out / 'map-preview.png')], check=True)
# a slip and questc's message for it (the same text the editor shows as the diagnostic and its quick fix)
import tempfile, shutil, os
tmp = Path(tempfile.mkdtemp())
shutil.copytree(str(ROOT / 'content' / 'd2e-quests'), tmp / 'd2e-quests')
q = tmp / 'd2e-quests' / 'first_blood.quest'
q.write_text(q.read_text().replace('spawn zombie at 8A(1,1)', 'spawn zombi at 8A(1,1)'))
r = subprocess.run([str(ROOT / '.venv' / 'bin' / 'questc'), 'check', 'd2e-quests'], cwd=tmp, capture_output=True, text=True, env={**os.environ, 'NO_COLOR': '1'})
lines = r.stderr.rstrip('\n').split('\n')
font = S.font_for(15, 'é')
w = max(S.text_size(font, l)[2] for l in lines) + 24
img = Image.new('RGB', (w, 22 * len(lines) + 20), (30, 30, 30))
d = ImageDraw.Draw(img)
for i, l in enumerate(lines):
    colour = (240, 90, 90) if l.startswith('error') else (120, 200, 120) if 'help:' in l else (220, 220, 220)
    d.text((12, 10 + 22 * i), l, fill=colour, font=font)
img.save(out / 'diagnostic.png', optimize=True)
shutil.rmtree(tmp)
