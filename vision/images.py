"""Reading image files into the BGR arrays the rest of the package works on."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError

# A face with transparency is composited on white, the colour of card stock, so that a bare
# face image reads like a photographed card filling the frame.
_PAPER = 255.0


@dataclass(frozen=True)
class Picture:
    """An image as 8-bit BGR; `bare_face` when it was a face cut out with transparency."""

    pixels: np.ndarray
    bare_face: bool


def read_picture(path: str | Path) -> Picture:
    """The image at `path`; a used alpha channel is cropped to its opaque part."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ImageError(f"{path}: {err.strerror or err}") from err
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED) if data else None
    except cv2.error:
        image = None
    if image is None or image.size == 0:
        raise ImageError(f"{path}: not an image OpenCV can decode")
    image = _to_8bit(image)
    if image.ndim == 3 and image.shape[2] == 4 and (image[:, :, 3] < 255).any():
        ys, xs = np.nonzero(image[:, :, 3] > 127)
        if len(xs) == 0:
            raise ImageError(f"{path}: the image is fully transparent")
        cut = image[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        return Picture(to_bgr(cut), bare_face=True)
    return Picture(to_bgr(image), bare_face=False)


def to_bgr(image: np.ndarray) -> np.ndarray:
    """A decoded 8-bit image (grey, BGR or BGRA) as BGR, alpha composited on white."""
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255.0
        rgb = image[:, :, :3].astype(np.float32)
        composited: np.ndarray = (rgb * alpha + _PAPER * (1.0 - alpha)).astype(np.uint8)
        return composited
    return np.ascontiguousarray(image[:, :, :3])


def _to_8bit(image: np.ndarray) -> np.ndarray:
    if image.dtype == np.uint8:
        return image
    top = float(np.iinfo(image.dtype).max) if image.dtype.kind in "ui" else 1.0
    scaled: np.ndarray = np.clip(image.astype(np.float32) * (255.0 / top), 0, 255)
    return scaled.astype(np.uint8)
