"""Rendering table-camera scenes: card faces laid on baize, as a camera over the layout sees them.

Everything is drawn from a seeded `numpy.random.Generator`, so a test or a benchmark names a
scene by its seed instead of keeping image files. The disturbances are the ones a real
table camera brings: small rotations, mild perspective, uneven and tinted light, sensor
noise, slight blur and JPEG loss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

CARD_NAMES = tuple(r + s for s in "SHDC" for r in "A23456789TJQK")
_IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")


@dataclass(frozen=True)
class Disturbance:
    """How hard a scene is: every field is the largest value drawn (0 turns it off)."""

    rotation_deg: float = 6.0
    perspective: float = 0.04  # corner displacement of the camera's view, share of the frame
    light_gradient: float = 0.35  # brightness falls by up to this share across the frame
    tint: float = 0.08  # white balance error per channel
    noise: float = 6.0  # sensor noise, grey levels (standard deviation)
    blur: float = 1.0  # Gaussian blur sigma, pixels
    jpeg_quality: int = 75  # lowest quality drawn (100 turns JPEG off)


GENTLE = Disturbance(2.0, 0.01, 0.15, 0.03, 3.0, 0.5, 90)
HARSH = Disturbance()
NONE = Disturbance(0, 0, 0, 0, 0, 0, 100)


@dataclass(frozen=True)
class Placed:
    """A card in a rendered scene: its name and its corners in the frame, top-left first."""

    card: str
    corners: np.ndarray


@dataclass
class Scene:
    image: np.ndarray
    cards: list[Placed] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


def load_faces(deck: Path) -> dict[str, np.ndarray]:
    """The 52 faces of a deck folder as BGRA (opaque where the file had no alpha)."""
    faces = {}
    for path in sorted(deck.iterdir()):
        name = path.stem.upper()
        if path.suffix.lower() in _IMAGE_TYPES and name in CARD_NAMES:
            image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if image is None:
                raise ValueError(f"{path}: not an image")
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
            elif image.shape[2] == 3:
                image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
            faces[name] = image
    missing = [n for n in CARD_NAMES if n not in faces]
    if missing:
        raise ValueError(f"{deck}: no face for {', '.join(missing)}")
    return faces


def baize(height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """Green felt: a base colour with a fibrous texture."""
    base = np.array([rng.uniform(30, 60), rng.uniform(95, 140), rng.uniform(20, 50)], np.float32)
    grain = rng.normal(0, 1, (height // 4 + 1, width // 4 + 1)).astype(np.float32)
    grain = cv2.resize(cv2.GaussianBlur(grain, (0, 0), 1.2), (width, height))
    fine = rng.normal(0, 1, (height, width)).astype(np.float32)
    texture = 6.0 * grain + 3.0 * fine
    return np.clip(base[None, None, :] + texture[..., None], 0, 255).astype(np.float32)


def card_corners(
    centre: tuple[float, float], width: float, aspect: float, angle_deg: float
) -> np.ndarray:
    """The corners of an upright card turned by `angle_deg`, top-left first, clockwise."""
    w, h = width / 2, width * aspect / 2
    box = np.float32([[-w, -h], [w, -h], [w, h], [-w, h]])
    a = np.deg2rad(angle_deg)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return box @ turn.T + np.float32(centre)


def paste(canvas: np.ndarray, face: np.ndarray, corners: np.ndarray, shadow: bool = True) -> None:
    """Draw a BGRA face into the float BGR canvas with its corners at `corners`."""
    h, w = face.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 4
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 4
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    local = corners - np.float32([x0, y0])
    matrix = cv2.getPerspectiveTransform(src, local.astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA)
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    region = canvas[y0:y1, x0:x1]
    if shadow:
        # The lamp stands above and a little in front: a soft shadow below and to the right,
        # and the card's thickness a thin dark line all round, on the card beneath too.
        soft = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), 2.0)[..., None]
        soft = np.roll(soft, (2, 2), axis=(0, 1))
        rim = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), 1.2)[..., None]
        region *= 1.0 - np.maximum(0.35 * soft, 0.3 * rim)
    region[:] = region * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha


@dataclass(frozen=True)
class Camera:
    """A camera fixed over the table: its view, its light and its sensor, drawn once."""

    view: np.ndarray  # homography, table pixels to frame pixels
    light: np.ndarray  # (h, w, 3) gain per pixel: uneven light and white balance
    blur: float
    noise: float
    jpeg_quality: int

    @classmethod
    def draw(
        cls, size: tuple[int, int], rng: np.random.Generator, disturbance: Disturbance
    ) -> Camera:
        w, h = size
        d = disturbance
        jitter = rng.uniform(-d.perspective, d.perspective, (4, 2)) * np.float32([w, h])
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        view = cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32))
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        direction = rng.uniform(0, 2 * np.pi)
        ramp = np.cos(direction) * (xs / w - 0.5) + np.sin(direction) * (ys / h - 0.5) + 0.5
        fall = 1.0 - rng.uniform(0, d.light_gradient) * np.clip(ramp, 0, 1)
        gain = 1.0 + rng.uniform(-d.tint, d.tint, 3).astype(np.float32)
        light = (fall[..., None] * gain[None, None, :]).astype(np.float32)
        blur = rng.uniform(0.3, d.blur) if d.blur > 0 else 0.0
        noise = rng.uniform(0.3, 1.0) * d.noise
        quality = int(rng.integers(d.jpeg_quality, 96)) if d.jpeg_quality < 100 else 100
        return cls(view, light, blur, noise, quality)

    def shoot(self, table: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The 8-bit frame of the table (float BGR), with fresh sensor noise."""
        h, w = table.shape[:2]
        image = cv2.warpPerspective(table, self.view, (w, h), borderMode=cv2.BORDER_REFLECT)
        image *= self.light
        if self.blur > 0:
            image = cv2.GaussianBlur(image, (0, 0), self.blur)
        if self.noise > 0:
            image += rng.normal(0, self.noise, image.shape).astype(np.float32)
        frame = np.clip(image, 0, 255).astype(np.uint8)
        if self.jpeg_quality < 100:
            _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
            frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return frame

    def project(self, corners: np.ndarray) -> np.ndarray:
        """Table corners as the frame sees them."""
        points = corners.reshape(-1, 1, 2).astype(np.float32)
        return cv2.perspectiveTransform(points, self.view).reshape(-1, 2)


def row_positions(
    rows: Sequence[Sequence[str]], size: tuple[int, int], card_width: float, aspect: float
) -> list[list[tuple[float, float]]]:
    """Card centres for rows laid from the top, left-aligned with a gap between cards."""
    width, height = size
    gap = card_width * 0.18
    card_height = card_width * aspect
    top = (height - len(rows) * card_height - (len(rows) - 1) * gap * 2) / 2
    centres = []
    for r, row in enumerate(rows):
        y = top + card_height / 2 + r * (card_height + gap * 2)
        x0 = (width - len(row) * card_width - (len(row) - 1) * gap) / 2
        centres.append([(x0 + card_width / 2 + i * (card_width + gap), y) for i in range(len(row))])
    return centres


def render_coup(
    faces: dict[str, np.ndarray],
    rows: Sequence[Sequence[str]],
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (1280, 720),
    disturbance: Disturbance = HARSH,
) -> Scene:
    """Rows of cards on baize, each jittered a little, seen through the camera."""
    width, height = size
    aspect = _aspect(faces)
    longest = max((len(r) for r in rows), default=1)
    fits = min(width * 0.94 / (longest * 1.18), height * 0.92 / (max(len(rows), 1) * aspect * 1.25))
    card_width = fits * rng.uniform(0.85, 1.0)
    canvas = baize(height, width, rng)
    placed = []
    centres = row_positions(rows, size, card_width, aspect)
    for row, row_centres in zip(rows, centres, strict=True):
        for name, (x, y) in zip(row, row_centres, strict=True):
            jx, jy = rng.uniform(-0.05, 0.05, 2) * card_width
            angle = rng.uniform(-disturbance.rotation_deg, disturbance.rotation_deg)
            corners = card_corners((x + jx, y + jy), card_width, aspect, angle)
            paste(canvas, faces[name], corners)
            placed.append(Placed(name, corners))
    cam = Camera.draw(size, rng, disturbance)
    seen = [Placed(p.card, cam.project(p.corners)) for p in placed]
    return Scene(cam.shoot(canvas, rng), seen, [list(r) for r in rows])


@dataclass(frozen=True)
class Laying:
    """How a tailleur lays a row at speed, and what else lies on the table.

    Each card lies over the one before it by up to `overlap` of its width, or touches it, or
    leaves a gap of up to `gap` (the corner index of every card stays in view, as rows are
    laid); each is turned by up to `rotation_deg`. `glare` and `clutter` are the chances of
    a bright reflection on one card and of a chip or a hand partly over the layout.
    """

    overlap: float = 0.2
    gap: float = 0.12
    rotation_deg: float = 10.0
    glare: float = 0.5
    clutter: float = 0.5

    def spacing(self, rng: np.random.Generator) -> float:
        """From one card to the next, in card widths beyond touching: overlapped below 0.
        Touching (0) is as likely as any overlap or gap: it is how rows are laid at speed."""
        return 0.0 if rng.random() < 0.25 else float(rng.uniform(-self.overlap, self.gap))


AT_SPEED = Laying()
_CHIP_COLOURS = ((40, 40, 200), (200, 80, 30), (30, 30, 30), (40, 150, 230))
_SKIN = np.float32([105, 145, 200])  # BGR


def render_laid_coup(
    faces: dict[str, np.ndarray],
    rows: Sequence[Sequence[str]],
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (1280, 720),
    laying: Laying = AT_SPEED,
    disturbance: Disturbance = HARSH,
) -> Scene:
    """Rows laid as at a table: overlapping, touching, turned, with glare and clutter."""
    width, height = size
    aspect = _aspect(faces)
    longest = max((len(r) for r in rows), default=1)
    step = 1.0 + laying.gap / 2  # the mean advance from card to card, in card widths
    fits = min(
        width * 0.9 / (1 + (longest - 1) * step + 0.3),
        height * 0.9 / (max(len(rows), 1) * aspect * 1.3),
    )
    card_width = fits * rng.uniform(0.85, 1.0)
    card_height = card_width * aspect
    canvas = baize(height, width, rng)
    placed: list[Placed] = []
    top = (height - len(rows) * card_height * 1.25) / 2 + card_height * 0.6
    for r, row in enumerate(rows):
        y = top + r * card_height * 1.25 + rng.uniform(-0.05, 0.05) * card_height
        x = width * 0.06 + card_width / 2 + rng.uniform(0, 0.05) * width
        for name in row:
            angle = rng.uniform(-laying.rotation_deg, laying.rotation_deg)
            corners = card_corners((x, y + rng.uniform(-0.04, 0.04) * card_height),
                                   card_width, aspect, angle)
            paste(canvas, faces[name], corners)
            placed.append(Placed(name, corners))
            x += card_width * (1.0 + laying.spacing(rng))
    if placed and rng.random() < laying.glare:
        _glare(canvas, placed[int(rng.integers(len(placed)))].corners, card_width, rng)
    if placed and rng.random() < laying.clutter:
        if rng.random() < 0.5:
            _chip(canvas, placed, card_width, rng)
        else:
            _hand_from_edge(canvas, placed, card_width, rng)
    cam = Camera.draw(size, rng, disturbance)
    seen = [Placed(p.card, cam.project(p.corners)) for p in placed]
    return Scene(cam.shoot(canvas, rng), seen, [list(r) for r in rows])


def _glare(canvas: np.ndarray, corners: np.ndarray, card_width: float,
           rng: np.random.Generator) -> None:
    """A soft reflection of the table lamp on part of a card (away from its index)."""
    centre = corners.mean(axis=0) + rng.uniform(-0.2, 0.3, 2) * card_width
    spot = np.zeros(canvas.shape[:2], np.float32)
    axes = (round(card_width * rng.uniform(0.25, 0.45)), round(card_width * rng.uniform(0.15, 0.3)))
    cv2.ellipse(spot, (round(centre[0]), round(centre[1])), axes, float(rng.uniform(0, 180)),
                0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), card_width * 0.08)
    canvas += (rng.uniform(80, 160) * spot)[..., None]
    np.clip(canvas, 0, 255, out=canvas)


def _chip(canvas: np.ndarray, placed: list[Placed], card_width: float,
          rng: np.random.Generator) -> None:
    """A gaming chip on the baize, partly over a card's lower right corner."""
    card = placed[int(rng.integers(len(placed)))].corners
    centre = card[2] + rng.uniform(0.05, 0.3, 2) * card_width
    radius = round(card_width * rng.uniform(0.22, 0.3))
    c = (round(centre[0]), round(centre[1]))
    colour = _CHIP_COLOURS[int(rng.integers(len(_CHIP_COLOURS)))]
    shade = np.zeros(canvas.shape[:2], np.float32)
    cv2.circle(shade, (c[0] + 3, c[1] + 3), radius, 1.0, -1)
    canvas *= (1.0 - 0.4 * cv2.GaussianBlur(shade, (0, 0), 3))[..., None]
    cv2.circle(canvas, c, radius, colour, -1, cv2.LINE_AA)
    for k in range(6):  # the edge spots of a casino chip
        a = k * np.pi / 3 + rng.uniform(0, 0.5)
        p = (round(c[0] + 0.82 * radius * np.cos(a)), round(c[1] + 0.82 * radius * np.sin(a)))
        cv2.circle(canvas, p, max(2, radius // 6), (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(canvas, c, round(radius * 0.55), (220, 220, 220), 2, cv2.LINE_AA)


def _hand_from_edge(canvas: np.ndarray, placed: list[Placed], card_width: float,
                    rng: np.random.Generator) -> None:
    """A hand reaching in from the bottom of the frame, its fingers over the baize and the
    lower edge of a card of the bottom row."""
    bottom = max(placed, key=lambda p: p.corners[:, 1].max())
    tip_y = float(bottom.corners[:, 1].max()) - rng.uniform(0.0, 0.15) * card_width
    x = float(bottom.corners[:, 0].mean())
    h = canvas.shape[0]
    mask = np.zeros(canvas.shape[:2], np.float32)
    palm = (round(x), round(h + 0.2 * card_width))
    cv2.ellipse(mask, palm, (round(0.7 * card_width), round(0.6 * card_width)), 0, 0, 360, 1, -1)
    for k in range(4):
        tip = (
            round(x + (k - 1.5) * 0.22 * card_width),
            round(tip_y + abs(k - 1.5) * 0.1 * card_width),
        )
        cv2.line(mask, palm, tip, 1.0, max(3, round(0.14 * card_width)), cv2.LINE_AA)
    shade = cv2.GaussianBlur(np.roll(mask, (6, 6), axis=(0, 1)), (0, 0), 4)
    canvas *= (1.0 - 0.4 * shade)[..., None]
    canvas[:] = canvas * (1.0 - mask[..., None]) + _SKIN * mask[..., None]


def render_single(
    faces: dict[str, np.ndarray],
    name: str,
    rng: np.random.Generator,
    *,
    size: tuple[int, int] = (640, 480),
    disturbance: Disturbance = HARSH,
) -> Scene:
    """One card close up, somewhere near the middle of the frame."""
    width, height = size
    aspect = _aspect(faces)
    card_width = height * rng.uniform(0.35, 0.6) / aspect
    centre = (
        width / 2 + rng.uniform(-0.15, 0.15) * width,
        height / 2 + rng.uniform(-0.08, 0.08) * height,
    )
    angle = rng.uniform(-disturbance.rotation_deg, disturbance.rotation_deg)
    canvas = baize(height, width, rng)
    corners = card_corners(centre, card_width, aspect, angle)
    paste(canvas, faces[name], corners)
    cam = Camera.draw(size, rng, disturbance)
    return Scene(cam.shoot(canvas, rng), [Placed(name, cam.project(corners))], [[name]])


def random_coup(rng: np.random.Generator, max_cards: int = 16) -> list[list[str]]:
    """Two rows of random cards, as a coup might lay them (at most `max_cards` in all)."""
    noir = int(rng.integers(2, 9))
    rouge = int(rng.integers(2, min(9, max_cards - noir + 1)))
    names = rng.choice(CARD_NAMES, noir + rouge, replace=True)
    return [list(names[:noir]), list(names[noir:])]


def _aspect(faces: dict[str, np.ndarray]) -> float:
    h, w = next(iter(faces.values())).shape[:2]
    return h / w
