"""Makes the faces compiled into isomer-pictures from Debian's font packages.

    apt-get install fonts-inter fonts-jetbrains-mono fonts-noto-core
    pip install fonttools==4.69.1
    python3 isomer-pictures/fonts/subset.py

Each face is cut to the scripts a slide draws (Latin, Greek, Cyrillic and the
punctuation, arrows, maths and shapes its faces hold) with fontTools'
`pyftsubset`, hinting dropped (takumi does not hint), and its `.notdef` glyph
redrawn as an empty box outline: the glyph takumi draws for a character no
registered face has. JetBrains Mono loses `calt`, the feature that holds its
ligatures (`->` drawn as one arrow), so code shows the characters typed.
Dingbats (U+2700-27BF) are left out of Inter and JetBrains Mono so that
✓ and ✕ come from Noto Sans Symbols 2, as upstream's Latin-only faces leave
them to it.
"""

import pathlib
import subprocess
import sys

from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

HERE = pathlib.Path(__file__).resolve().parent
INTER = pathlib.Path("/usr/share/fonts/opentype/inter")
MONO = pathlib.Path("/usr/share/fonts/truetype/jetbrains-mono")
NOTO = pathlib.Path("/usr/share/fonts/truetype/noto")

# Latin with its extensions and combining marks, Greek, Cyrillic, Latin
# Extended Additional, punctuation, super- and subscripts, currency,
# letterlike symbols, number forms, arrows, maths, technical symbols, box
# drawing, blocks and geometric shapes, the replacement character.
TEXT = (
    "U+0000-024F,U+02B0-036F,U+0370-03FF,U+0400-052F,U+1E00-1EFF,U+2000-206F,"
    "U+2070-209F,U+20A0-20CF,U+2100-214F,U+2150-218F,U+2190-21FF,"
    "U+2200-22FF,U+2300-23FF,U+2500-257F,U+2580-259F,U+25A0-25FF,U+FFFD"
)
# Noto Sans Symbols 2: dingbats (✓ ✕ ✦), geometric shapes, miscellaneous
# symbols (★ ☆), miscellaneous symbols and arrows, and the supplementary
# arrows and shapes.
SYMBOLS = (
    "U+2190-21FF,U+2300-23FF,U+25A0-25FF,U+2600-26FF,U+2700-27BF,"
    "U+27F0-27FF,U+2900-297F,U+2B00-2BFF,U+1F780-1F7FF,U+1F800-1F8FF"
)

FACES = [
    (INTER / "Inter-Regular.otf", "Inter-Regular.otf", TEXT, []),
    (INTER / "Inter-Italic.otf", "Inter-Italic.otf", TEXT, []),
    (INTER / "Inter-Medium.otf", "Inter-Medium.otf", TEXT, []),
    (INTER / "Inter-SemiBold.otf", "Inter-SemiBold.otf", TEXT, []),
    (INTER / "Inter-Bold.otf", "Inter-Bold.otf", TEXT, []),
    (INTER / "Inter-ExtraBold.otf", "Inter-ExtraBold.otf", TEXT, []),
    (MONO / "JetBrainsMono-Regular.ttf", "JetBrainsMono-Regular.ttf", TEXT, ["calt"]),
    (MONO / "JetBrainsMono-Bold.ttf", "JetBrainsMono-Bold.ttf", TEXT, ["calt"]),
    (NOTO / "NotoSansSymbols2-Regular.ttf", "NotoSansSymbols2-Regular.ttf", SYMBOLS, []),
]


def subset(source, target, unicodes, dropped_features):
    command = [
        sys.executable, "-m", "fontTools.subset", str(source),
        f"--unicodes={unicodes}",
        # pyftsubset's default features (kerning, marks, case, fractions,
        # localized forms and the rest a text face needs) plus tabular and
        # proportional figures and the slashed zero; no stylistic alternates.
        "--layout-features+=tnum,pnum,zero,case,sups,subs,ordn",
        "--name-IDs=*",
        "--name-languages=*",
        "--no-hinting",
        "--notdef-glyph",
        "--notdef-outline",
        f"--output-file={target}",
    ]
    if dropped_features:
        command.append("--layout-features-=" + ",".join(dropped_features))
    subprocess.run(command, check=True)


def box(pen, width, ascent):
    """An empty box: an outer rectangle and, wound the other way, an inner one."""
    left, right = width * 0.1, width * 0.9
    bottom, top = 0, ascent * 0.8
    stroke = max(width * 0.06, 40)
    pen.moveTo((left, bottom))
    pen.lineTo((left, top))
    pen.lineTo((right, top))
    pen.lineTo((right, bottom))
    pen.closePath()
    pen.moveTo((left + stroke, bottom + stroke))
    pen.lineTo((right - stroke, bottom + stroke))
    pen.lineTo((right - stroke, top - stroke))
    pen.lineTo((left + stroke, top - stroke))
    pen.closePath()


def outline_notdef(path):
    """Redraws `.notdef` (glyph 0) as an empty box of its advance width."""
    font = TTFont(path)
    name = font.getGlyphOrder()[0]
    width, _ = font["hmtx"][name]
    ascent = font["hhea"].ascent
    if "CFF " in font:
        cff = font["CFF "].cff
        top = cff[cff.fontNames[0]]
        charstrings = top.CharStrings
        private = charstrings[name].private
        pen = T2CharStringPen(width, None)
        box(pen, width, ascent)
        charstring = pen.getCharString(private=private, globalSubrs=top.GlobalSubrs)
        charstrings[name] = charstring
    else:
        pen = TTGlyphPen(None)
        box(pen, width, ascent)
        font["glyf"][name] = pen.glyph()
    font.save(path)


def main():
    for source, target, unicodes, dropped in FACES:
        target = HERE / target
        subset(source, target, unicodes, dropped)
        outline_notdef(target)
        print(f"{target.name}: {source.stat().st_size} -> {target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
