"""The running companion: event bus, table session, camera loop, driver and calibration wizard, composed.

`vision_demo_runtime`, `players_demo_runtime` and `camera_runtime` build the ways the companion runs; the web
app only ever sees a Runtime, so it serves a simulated game and a camera-watched one the same way.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from pathlib import Path

from web_dashboard.bus import EventBus
from web_dashboard.display import DisplayFeed
from web_dashboard.pipeline import CameraLoop
from web_dashboard.recognition import load_recognizer
from web_dashboard.session import GameSettings, TableSession
from web_dashboard.simplayers import SimulatedPlayers, SimulationSettings
from web_dashboard.wizard import CalibrationWizard, overlay_painter

DEMO_NAMES = ("Ana", "Ben", "Cleo", "Dev")
# Who makes the moves, as the dashboard labels it (the driver badge).
VISION_DEMO_DRIVER = "vision (simulated table)"
PLAYERS_DEMO_DRIVER = "simulated players"


@dataclass
class Runtime:
    bus: EventBus
    session: TableSession
    wizard: CalibrationWizard
    camera: CameraLoop | None = None
    players: SimulatedPlayers | None = None
    mode: str = "demo"  # "demo" or "camera"
    display: DisplayFeed | None = None  # the LED score display, when one is asked for
    # The demo's simulated camera is "unplugged" while this is set (tests and the load test use it).
    camera_off: threading.Event = field(default_factory=threading.Event)
    stopping: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        if self.camera is not None:
            self.camera.start()
        if self.players is not None:
            self.players.start()
        if self.display is not None:
            self.display.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.display is not None:
            self.display.stop()
        if self.players is not None:
            self.players.stop()
        if self.camera is not None:
            self.camera.stop()
        self.session.close()

    def drive_display(self, port: str) -> None:
        """Show the game on the LED score display at `port` too (from `start()` on)."""
        self.display = DisplayFeed(self.session, self.bus, port)


def vision_demo_runtime(
    players: int = 4,
    variant: str = "colored",
    simulation: SimulationSettings | None = None,
    log_dir: Path | None = None,
    calibration_path: Path | None = None,
    camera_fps: float | None = None,
) -> Runtime:
    """The embedded demo: a rendered game played at a simulated table, read through the real pipeline.

    The camera is the synthetic renderer animating a whole game (hands, misplacements, wall tiling) in real
    time; the game on the dashboard is what CameraLoop -> TableRecognizer -> MoveTracker make of those frames,
    exactly as with a real camera. The person at the table (DemoHost) writes the calibration and presses
    capture; `simulation` sets the pace (move seconds, misplacement chance, how long a mistake stays) and seed;
    `camera_fps` the frame rate (default: the renderer's), the pace staying in seconds.
    """
    from web_dashboard.rendered import DEMO_FPS, AnimatedTable, DemoHost, demo_pace

    simulation = simulation or SimulationSettings()
    bus = EventBus()
    names = DEMO_NAMES[:players]
    session = TableSession(bus, GameSettings(players, variant, names, log_dir), driver=VISION_DEMO_DRIVER)
    camera_off = threading.Event()
    fps = camera_fps or DEMO_FPS
    pace = demo_pace(simulation.move_seconds, simulation.illegal_chance, simulation.alert_seconds,
                     simulation.restart_seconds, fps)
    seed = simulation.seed if simulation.seed is not None else random.randrange(1_000_000)
    table = AnimatedTable(players, variant, seed, pace, fps, fail=camera_off.is_set)
    loop = CameraLoop(table, session, bus, recognizer=None, recognition_label="setting up: rendering the table")
    table.on_frame = DemoHost(session, loop, names).see
    wizard = CalibrationWizard(calibration_path or Path("calibration-demo.json"))
    wizard.on_saved = _recognise_with_saved(session, loop, VISION_DEMO_DRIVER)
    return Runtime(bus, session, wizard, camera=loop, camera_off=camera_off)


def players_demo_runtime(
    players: int = 4,
    variant: str = "colored",
    simulation: SimulationSettings | None = None,
    log_dir: Path | None = None,
    calibration_path: Path | None = None,
    camera_fps: float = 12.0,
    camera: str = "rendered",
) -> Runtime:
    """The demo without vision (`demo --no-vision`, for machines too slow to render and read frames live):
    simulated players drive the game through the session; a simulated camera (vision's synthetic renderer,
    or the schematic drawing) photographs their table for the camera view. Recognition stays off: the moves
    come from the simulated players, and the UI says so."""
    bus = EventBus()
    settings = GameSettings(players, variant, DEMO_NAMES[:players], log_dir)
    session = TableSession(bus, settings, driver=PLAYERS_DEMO_DRIVER)
    camera_off = threading.Event()

    def table() -> dict:
        with session.transaction() as game:
            return game.state.to_table()

    source = _demo_camera(camera, table, players, variant, camera_fps, camera_off)
    loop = CameraLoop(source, session, bus, recognizer=None, recognition_label="off (simulated players)")
    wizard = CalibrationWizard(calibration_path or Path("calibration-demo.json"))
    # The demo shows a saved calibration on the camera view; its simulated players still make the moves.
    wizard.on_saved = lambda profile: loop.use_calibration(overlay_painter(profile))
    runtime = Runtime(bus, session, wizard,
                      camera=loop, players=SimulatedPlayers(session, simulation or SimulationSettings()),
                      camera_off=camera_off)
    return runtime


def _demo_camera(kind: str, table, players: int, variant: str, fps: float, off: threading.Event):
    """The demo's camera: photographs from vision's renderer, or the schematic drawing (fast, for tests and
    for builds without the renderer)."""
    if kind == "rendered":
        try:
            import vision.synthetic.render  # noqa: F401 - present in this build?
            from web_dashboard.rendered import RenderedTable

            return RenderedTable(table, players, variant, fps=fps, fail=off.is_set)
        except ImportError:
            pass
    from web_dashboard.schematic import SchematicTable

    return SchematicTable(table, fps=fps, fail=off.is_set)


def camera_runtime(
    source,
    players: int,
    variant: str,
    names: tuple[str, ...],
    calibration_path: Path,
    log_dir: Path | None,
    recognizer=None,
    recognition_label: str = "off",
    overlay=None,
) -> Runtime:
    """A real table: the camera loop feeds the recognizer and move tracker (when available)."""
    bus = EventBus()
    session = TableSession(bus, GameSettings(players, variant, names, log_dir),
                           driver="camera" if recognizer is not None else "manual entry")
    camera = CameraLoop(source, session, bus, recognizer=recognizer, recognition_label=recognition_label,
                        overlay=overlay)
    wizard = CalibrationWizard(calibration_path)
    wizard.on_saved = _recognise_with_saved(session, camera, "camera")
    return Runtime(bus, session, wizard, camera=camera, mode="camera")


def _recognise_with_saved(session: TableSession, camera: CameraLoop, driver: str):
    """What the wizard does on save: the saved profile starts recognition without a restart."""

    def calibrated(profile) -> None:
        found, label = load_recognizer(profile)
        session.driver = driver if found is not None else "manual entry"
        camera.use_calibration(overlay_painter(profile), found, label)
        session.publish_now()

    return calibrated
