"""Where a camera's frames come from: a device, a video file or a folder of image files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from drivers.errors import PortError

_FRAME_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


def open_camera_source(source: str) -> Iterator[np.ndarray]:
    """Frames (BGR) from a device index ("0"), a video file or a folder of image files.

    A folder is read in file-name order. Raises `PortError` when the source cannot be opened.
    """
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in _FRAME_TYPES)
        if not files:
            raise PortError(f"{source}: no image files in this folder")
        return _folder_frames(files)
    if source.isdigit():
        capture = cv2.VideoCapture(int(source))
    elif path.is_file():
        capture = cv2.VideoCapture(str(path))
    else:
        raise PortError(f"{source}: no such camera, video file or folder")
    if not capture.isOpened():
        capture.release()
        raise PortError(f"{source}: cannot open it as a camera or a video")
    return _capture_frames(capture)


def frame_fault(frame: object) -> str | None:
    """What makes a frame unusable (a camera or a capture may hand over an empty buffer
    when it drops a frame), or None: a frame is an 8-bit colour image with pixels."""
    if not isinstance(frame, np.ndarray):
        return f"not an image but {type(frame).__name__}"
    if frame.ndim != 3 or frame.shape[2] != 3:
        return f"not a colour image (shape {frame.shape})"
    if frame.dtype != np.uint8:
        return f"{frame.dtype} pixels, not 8-bit"
    if frame.size == 0:
        return f"empty ({frame.shape[1]}x{frame.shape[0]} pixels)"
    return None


def _folder_frames(files: list[Path]) -> Iterator[np.ndarray]:
    for file in files:
        frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
        if frame is not None:  # a half-written or foreign file is skipped, not fatal
            yield frame


def _capture_frames(capture: cv2.VideoCapture) -> Iterator[np.ndarray]:
    try:
        while True:
            ok, frame = capture.read()
            if not ok or frame is None:
                return
            yield frame
    finally:
        capture.release()
