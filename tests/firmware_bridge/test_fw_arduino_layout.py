"""The firmware is also an Arduino IDE sketch (azul_display/azul_display.ino + src/). Without the Arduino core
here, this compiles it the way the IDE does (sources with -DARDUINO, the .ino as C++) with a stand-in for the
core's main(), which proves the C/C++ linkage and the ARDUINO guards; the core itself is not exercised."""

from __future__ import annotations

import subprocess

from firmware_bridge.simulator import FIRMWARE_DIR

SKETCH = FIRMWARE_DIR / "azul_display"
FLAGS = ["-mmcu=atmega328p", "-DF_CPU=16000000L", "-DARDUINO=10819", "-DARDUINO_AVR_UNO", "-Os", "-Wall",
         "-Werror"]


def run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_sketch_folder_is_what_the_ide_expects():
    assert (SKETCH / "azul_display.ino").is_file()  # the IDE wants <folder>/<folder>.ino
    assert sorted(p.name for p in (SKETCH / "src").glob("*.c"))  # and compiles src/ recursively


def test_sketch_compiles_as_the_ide_would(tmp_path):
    objects = []
    for source in sorted((SKETCH / "src").glob("*.c")):
        obj = tmp_path / (source.name + ".o")
        run(["avr-gcc", *FLAGS, "-c", str(source), "-o", str(obj)])
        objects.append(str(obj))
    sketch = tmp_path / "sketch.cpp"
    sketch.write_text((SKETCH / "azul_display.ino").read_text()
                      + "\nint main(void) { setup(); for (;;) loop(); }  // stand-in for the Arduino core\n")
    run(["avr-g++", *FLAGS, f"-I{SKETCH}", "-c", str(sketch), "-o", str(tmp_path / "sketch.o")])
    elf = tmp_path / "sketch.elf"
    # main.c must have compiled to nothing under ARDUINO, or this link fails with two main()s.
    run(["avr-gcc", "-mmcu=atmega328p", *objects, str(tmp_path / "sketch.o"), "-o", str(elf)])
    symbols = subprocess.run(["avr-nm", str(elf)], capture_output=True, text=True).stdout
    assert " T app_init" in symbols and " T app_poll" in symbols
