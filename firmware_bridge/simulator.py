"""Build the display firmware and run it in simavr, with its UART on a pseudo-terminal (for tests and for
trying the display without a board). Needs Debian's gcc-avr, avr-libc, simavr, libsimavr-dev, libelf-dev.

    build = build_firmware_and_harness(Path("/tmp/azul-sim"))
    with SimulatedDisplay(build, Path("/tmp/azul-sim/tty")) as sim:
        ...  # DisplayBridge(BridgeConfig(port=str(sim.link_path))) talks to the firmware
        sim.state()["players"]  # what the MAX7219 digits show, read from the simulated SPI pins
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
SIM_DIR = Path(__file__).resolve().parent / "sim"


class SimulatorError(RuntimeError):
    """The toolchain, the build, or the simulator process failed; the message carries its output."""


@dataclass(frozen=True)
class FirmwareSize:
    flash_bytes: int
    flash_percent: float
    ram_bytes: int
    ram_percent: float
    report: str


@dataclass(frozen=True)
class SimBuild:
    firmware_elf: Path
    harness: Path
    size: FirmwareSize
    exit_address: int  # byte address of avr-libc's _exit (cli; rjmp .)


def _symbol_address(elf: Path, name: str) -> int:
    try:
        out = subprocess.run(["avr-nm", str(elf)], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as err:
        raise SimulatorError(f"avr-nm failed: {err}") from err
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    raise SimulatorError(f"no symbol {name} in {elf}")


def _make(directory: Path, build: Path, *targets: str) -> str:
    try:
        proc = subprocess.run(["make", "--no-print-directory", "-C", str(directory), f"BUILD={build}", *targets],
                              capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise SimulatorError(f"make in {directory} failed: {err}") from err
    if proc.returncode != 0:
        raise SimulatorError(f"make in {directory} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def parse_avr_size(report: str) -> FirmwareSize:
    """Parse ``avr-size -C`` output ("Program: N bytes (P% Full)", "Data: N bytes (P% Full)")."""
    prog = re.search(r"Program:\s+(\d+) bytes \(([\d.]+)% Full\)", report)
    data = re.search(r"Data:\s+(\d+) bytes \(([\d.]+)% Full\)", report)
    if not prog or not data:
        raise SimulatorError(f"unexpected avr-size output:\n{report}")
    return FirmwareSize(int(prog[1]), float(prog[2]), int(data[1]), float(data[2]), report.strip())


def build_firmware_and_harness(out_dir: Path) -> SimBuild:
    """Build from source into out_dir (never into the source tree)."""
    fw_build, sim_build = out_dir / "firmware", out_dir / "sim"
    _make(FIRMWARE_DIR, fw_build, "all")
    size = parse_avr_size(_make(FIRMWARE_DIR, fw_build, "size"))
    _make(SIM_DIR, sim_build, "all")
    elf = fw_build / "azul_display.elf"
    return SimBuild(elf, sim_build / "azul_display_sim", size, _symbol_address(elf, "_exit"))


@dataclass
class SimulatedDisplay:
    build: SimBuild
    link_path: Path  # the harness symlinks its pty here: a stable "device path" across unplug/replug
    seed: int = 1
    reply_timeout_s: float = 3.0
    _proc: subprocess.Popen | None = None
    _lines: queue.Queue[str] = field(default_factory=queue.Queue)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stderr: list[str] = field(default_factory=list)
    _ptys: list[str] = field(default_factory=list)  # every pty the harness opened (one more per replug)

    def start(self) -> SimulatedDisplay:
        self._proc = subprocess.Popen(
            [str(self.build.harness), str(self.build.firmware_elf), str(self.link_path), str(self.seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._read, args=(self._proc.stdout, True), daemon=True).start()
        threading.Thread(target=self._read, args=(self._proc.stderr, False), daemon=True).start()
        self._wait_ptys(1, self.reply_timeout_s)
        return self

    def stop(self) -> None:
        if self._proc is None:
            return
        try:
            self._proc.stdin.write("quit\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            self._proc.wait(2)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(2)
        self._proc = None

    def __enter__(self) -> SimulatedDisplay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ commands (see sim/harness.c)
    def state(self) -> dict:
        return json.loads(self._command("state", "@state").split(" ", 1)[1])

    def press(self, button: int, hold_ms: int = 80) -> None:
        self._command(f"press {button} {hold_ms}")

    def set_faults(self, drop: float = 0.0, corrupt: float = 0.0, mute: bool = False) -> None:
        self._command(f"fault {drop} {corrupt} {int(mute)}")

    def inject_garbage(self, count: int, to_host: bool = False) -> None:
        self._command(f"garbage {count} {int(to_host)}")

    def unplug(self, for_ms: int) -> None:
        self._command(f"unplug {for_ms}")

    def reset(self) -> None:
        self._command("reset")

    def hang(self) -> None:
        """Send the firmware into ``cli; rjmp .`` (avr-libc's _exit): only the watchdog can bring it back."""
        self._command(f"jump {self.build.exit_address}")

    @property
    def pty_count(self) -> int:
        """How many ptys the harness has opened: one at start, one more at every replug."""
        return len(self._ptys)

    def wait_ptys(self, count: int, timeout_s: float = 5.0) -> None:
        self._wait_ptys(count, timeout_s)

    @property
    def pty_path(self) -> str | None:
        return self._ptys[-1] if self._ptys else None

    # ------------------------------------------------------------------------------ internals
    def _read(self, stream, is_stdout: bool) -> None:
        for line in stream:
            if is_stdout and line.startswith("@pty "):
                self._ptys.append(line.split(" ", 1)[1].strip())
            elif is_stdout and line.startswith("@"):
                self._lines.put(line.rstrip("\n"))
            elif not is_stdout:
                self._stderr.append(line)

    def _command(self, text: str, reply: str = "@ok") -> str:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                raise SimulatorError(f"simulator is not running; stderr: {''.join(self._stderr[-20:])}")
            self._proc.stdin.write(text + "\n")
            self._proc.stdin.flush()
            return self._expect(reply)

    def _expect(self, prefix: str, timeout_s: float | None = None) -> str:
        deadline = time.monotonic() + (timeout_s or self.reply_timeout_s)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SimulatorError(f"no {prefix} from the simulator; stderr: {''.join(self._stderr[-20:])}")
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line.startswith("@error") or line.startswith("@crashed"):
                raise SimulatorError(line)
            if line.startswith(prefix):
                return line

    def _wait_ptys(self, count: int, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while len(self._ptys) < count:
            if time.monotonic() > deadline or (self._proc is not None and self._proc.poll() is not None):
                raise SimulatorError(f"the simulator opened no pty; stderr: {''.join(self._stderr[-20:])}")
            time.sleep(0.01)
