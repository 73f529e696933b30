"""The calibration wizard's endpoints and images."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from web_dashboard import validate
from web_dashboard.runtime import Runtime
from web_dashboard.validate import BadRequest
from web_dashboard.wizard import WizardError

bp = Blueprint("wizard", __name__)


def runtime() -> Runtime:
    return current_app.extensions["azul_runtime"]


@bp.errorhandler(WizardError)
def _wizard_error(err: WizardError):
    return jsonify({"ok": False, "error": str(err)}), 409


@bp.errorhandler(BadRequest)
def _bad_request(err: BadRequest):
    return jsonify({"ok": False, "error": str(err)}), 400


def _frame():
    camera = runtime().camera
    frame = camera.snapshot() if camera is not None else None
    if frame is None:
        raise WizardError("the camera has not delivered a frame yet: check the camera view, or upload a photo")
    return frame


def _draft() -> dict:
    data = request.get_json(silent=True)
    if data is None:
        raise BadRequest("the request body is not valid JSON")
    draft = validate.obj(data).get("draft")
    return validate.obj(draft)


@bp.post("/api/calibration/snapshot")
def snapshot():
    return jsonify({"ok": True, **runtime().wizard.set_snapshot(_frame())})


@bp.post("/api/calibration/upload")
def upload():
    photo = request.files.get("photo")
    if photo is None:
        raise BadRequest("send the photo as the multipart field 'photo'")
    return jsonify({"ok": True, **runtime().wizard.set_uploaded(photo.read())})


@bp.get("/api/calibration/captures")
def captures():
    return jsonify({"ok": True, "captures": runtime().wizard.captures()})


@bp.post("/api/calibration/bare")
def capture_bare():
    return jsonify({"ok": True, **runtime().wizard.capture_bare(_frame())})


# The setup capture (boards empty, displays dealt); "empty" in its path is for the boards, kept for its callers.
@bp.post("/api/calibration/empty")
def capture_setup():
    return jsonify({"ok": True, **runtime().wizard.capture_setup(_frame())})


@bp.post("/api/calibration/check")
def check():
    return jsonify(runtime().wizard.check(_draft()))


@bp.post("/api/calibration/save")
def save():
    return jsonify(runtime().wizard.save(_draft()))


def _jpeg(image) -> Response:
    import cv2

    if image is None:
        return Response("nothing to show yet", status=404, mimetype="text/plain")
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return Response(data.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/calibration/snapshot.jpg")
def snapshot_image():
    return _jpeg(runtime().wizard.snapshot)


@bp.get("/calibration/overlay.jpg")
def overlay_image():
    return _jpeg(runtime().wizard.overlay)
