"""Calibrating on a casino's own design with `--deck`: built quickly, cached, and read back."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware_sims.deck_maker import write_deck
from hardware_sims.scene_render import CARD_NAMES, HARSH, load_faces, random_coup, render_coup
from vision import design as design_module
from vision.design import Design, builtin_design, load_design
from vision.errors import DeckError
from vision.images import read_picture
from vision.layout import read_layout, read_one


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder / "croupier" / "vision"


@pytest.fixture(scope="module")
def other_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("deck")
    write_deck(folder, seed=4)
    return folder


def _rows(frame: np.ndarray, design: Design) -> list[list[str | None]]:
    return [
        [str(s.reading.card) if s.reading.card else None for s in row]
        for row in read_layout(frame, design)
    ]


def test_a_calibrated_design_reads_its_own_coups(cache: Path, other_deck: Path) -> None:
    design = load_design(other_deck)
    faces = load_faces(other_deck)
    exact = 0
    for seed in range(3000, 3006):
        rng = np.random.default_rng(seed)
        scene = render_coup(faces, random_coup(rng), rng, disturbance=HARSH)
        got = _rows(scene.image, design)
        assert [len(r) for r in got] == [len(r) for r in scene.rows]
        assert all(
            g in (None, w)
            for gr, wr in zip(got, scene.rows, strict=True)
            for g, w in zip(gr, wr, strict=True)
        )
        exact += got == scene.rows
    assert exact >= 5


def test_the_built_in_design_declines_a_design_it_was_not_calibrated_on(
    cache: Path, other_deck: Path
) -> None:
    builtin = builtin_design()
    faces = load_faces(other_deck)
    rng = np.random.default_rng(3100)
    scene = render_coup(faces, random_coup(rng), rng, disturbance=HARSH)
    got = _rows(scene.image, builtin)
    assert [len(r) for r in got] == [len(r) for r in scene.rows]
    assert all(name is None for row in got for name in row)


def test_the_design_is_cached_and_the_cache_is_used(
    cache: Path, other_deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_design(other_deck)
    files = list(cache.glob("*.npz"))
    assert len(files) == 1

    def no_build(_: object) -> Design:
        raise AssertionError("rebuilt although cached")

    monkeypatch.setattr(design_module, "build_design", no_build)
    again = load_design(other_deck)
    assert np.array_equal(again.face, first.face)
    assert again.aspect == pytest.approx(first.aspect)


def test_a_corrupt_cache_is_rebuilt(cache: Path, other_deck: Path) -> None:
    first = load_design(other_deck)
    (cached,) = cache.glob("*.npz")
    for garbage in (b"", b"PK\x03\x04 not really a zip", cached.read_bytes()[:200]):
        cached.write_bytes(garbage)
        rebuilt = load_design(other_deck)
        assert np.allclose(rebuilt.face, first.face)
        assert cached.stat().st_size > 1000


@pytest.mark.parametrize(
    ("field", "value"),
    [("inset", [0.5, 0.5]), ("inset", [0.6, 0.0]), ("aspect", 0.0), ("aspect", np.nan),
     ("paper", np.inf)],
)
def test_a_cache_whose_measures_no_card_has_is_rebuilt(
    cache: Path, other_deck: Path, field: str, value: object
) -> None:
    """A cache file is the program's own, but a file all the same: a measure no card can
    have (an outline inset half the card, which left no width to read) is not trusted."""
    first = load_design(other_deck)
    (cached,) = cache.glob("*.npz")
    with np.load(cached, allow_pickle=False) as data:
        fields = {name: data[name] for name in data.files}
    fields[field] = np.array(value, np.float64)
    with cached.open("wb") as out:
        np.savez(out, **fields)
    rebuilt = load_design(other_deck)
    measures = (rebuilt.inset, rebuilt.aspect, rebuilt.paper)
    assert measures == (first.inset, first.aspect, first.paper)


@pytest.mark.parametrize("field", ["face", "index"])
def test_a_cache_whose_maps_have_another_width_is_rebuilt(
    cache: Path, other_deck: Path, field: str
) -> None:
    """Maps cut to 7 values a card (a second reader's hostile file) cannot be compared with
    a card seen: the matrix product raised, and `vision classify` died with a traceback."""
    first = load_design(other_deck)
    (cached,) = cache.glob("*.npz")
    with np.load(cached, allow_pickle=False) as data:
        fields = {name: data[name] for name in data.files}
    fields[field] = fields[field][:, :, :7]
    with cached.open("wb") as out:
        np.savez(out, **fields)
    rebuilt = load_design(other_deck)
    assert rebuilt.face.shape == first.face.shape
    assert rebuilt.index.shape == first.index.shape


def test_a_changed_face_gets_its_own_cache(cache: Path, other_deck: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in other_deck.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    load_design(copy)
    image = cv2.imread(str(copy / "QH.png"), cv2.IMREAD_UNCHANGED)
    cv2.imwrite(str(copy / "QH.png"), image[::-1].copy())
    load_design(copy)
    assert len(list(cache.glob("*.npz"))) == 2


def test_faces_of_any_common_type_and_ten_as_10(
    cache: Path, other_deck: Path, tmp_path: Path
) -> None:
    jpegs = tmp_path / "jpegs"
    jpegs.mkdir()
    for name in CARD_NAMES:
        face = cv2.imread(str(other_deck / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        flat = face[:, :, :3].astype(np.float32) * (face[:, :, 3:] / 255.0) + 255 * (
            1 - face[:, :, 3:] / 255.0
        )
        stem = name.replace("T", "10") if name[0] == "T" else name
        cv2.imwrite(
            str(jpegs / f"{stem.lower()}.jpg"),
            flat.astype(np.uint8),
            [cv2.IMWRITE_JPEG_QUALITY, 90],
        )
    design = load_design(jpegs)
    for name in ("TD", "AS", "KH"):
        stem = "10d" if name == "TD" else name.lower()
        picture = read_picture(jpegs / f"{stem}.jpg")
        assert str(read_one(picture.pixels, design).card) == name


def test_a_deck_folder_missing_faces_is_refused(
    cache: Path, other_deck: Path, tmp_path: Path
) -> None:
    partial = tmp_path / "partial"
    partial.mkdir()
    for name in CARD_NAMES[:50]:
        (partial / f"{name}.png").write_bytes((other_deck / f"{name}.png").read_bytes())
    with pytest.raises(DeckError, match="QC, KC"):
        load_design(partial)
    with pytest.raises(DeckError, match="not a folder"):
        load_design(tmp_path / "nowhere")


def test_a_deck_with_an_unreadable_face_is_refused(
    cache: Path, other_deck: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in CARD_NAMES:
        (broken / f"{name}.png").write_bytes((other_deck / f"{name}.png").read_bytes())
    (broken / "7H.png").write_bytes(b"truncated")
    with pytest.raises(DeckError, match=r"7H\.png"):
        load_design(broken)


def test_a_design_framed_near_its_edge_is_read_or_declined(cache: Path, tmp_path: Path) -> None:
    framed = tmp_path / "framed"
    write_deck(framed, seed=17)  # a dark frame printed just inside the edge
    design = load_design(framed)
    assert design.inset[0] > 0.03
    faces = load_faces(framed)
    named = total = 0
    for seed in range(3200, 3204):
        rng = np.random.default_rng(seed)
        scene = render_coup(faces, random_coup(rng), rng, disturbance=HARSH)
        for row_got, row_want in zip(_rows(scene.image, design), scene.rows, strict=True):
            for got, want in zip(row_got, row_want, strict=True):
                assert got in (None, want)
                named += got == want
                total += 1
    assert named >= 0.8 * total


def test_a_white_edged_design_needs_no_outline_correction(cache: Path) -> None:
    assert builtin_design().inset == (0.0, 0.0)


@pytest.mark.parametrize("fine", [
    "float", "missing", "transposed",
])
def test_a_cache_whose_fine_faces_were_not_made_here_is_rebuilt(
    cache: Path, other_deck: Path, fine: str
) -> None:
    """The fine faces of the look beside a suit twin, cached with the maps: as floats (NaN
    read as 0 and 1000 as 232 when cast, a second reader found), missing, or of another
    shape, they are made again, not trusted (a blank set turns the look off unseen)."""
    first = load_design(other_deck)
    (cached,) = cache.glob("*.npz")
    with np.load(cached, allow_pickle=False) as data:
        fields = {name: data[name] for name in data.files}
    if fine == "float":
        fields["fine"] = np.full(fields["fine"].shape, np.nan)
    elif fine == "missing":
        del fields["fine"]
    else:
        fields["fine"] = fields["fine"].transpose(0, 2, 1)
    with cached.open("wb") as out:
        np.savez(out, **fields)
    rebuilt = load_design(other_deck)
    assert rebuilt.fine.dtype == np.uint8
    assert np.array_equal(rebuilt.fine, first.fine)


def test_a_loaded_design_is_prepared_and_a_frame_derives_nothing_from_it(
    cache: Path, other_deck: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table calibrates once and reads thousands of frames: the cuts of the references
    for partly hidden cards, the likeness of each pair and where twins differ are made
    when the design is loaded, whether built or read from the cache, not on a frame."""
    for design in (load_design(other_deck), load_design(other_deck)):
        made = vars(design)
        assert {"_masked", "gram", "index_gram", "fine_parted"} <= made.keys()
        assert sorted(made["_masked"]) == list(range(2, design.size[0] // 2, 2))

    def derived(*_: object) -> object:
        raise AssertionError("derived from the design during a frame")

    monkeypatch.setattr(design_module, "cut_face", derived)
    monkeypatch.setattr(design_module, "_pairs", derived)
    monkeypatch.setattr(design_module, "parted", derived)
    faces = load_faces(other_deck)
    rng = np.random.default_rng(3000)
    scene = render_coup(faces, random_coup(rng), rng, disturbance=HARSH)
    got = _rows(scene.image, design)
    assert [len(r) for r in got] == [len(r) for r in scene.rows]


def test_a_cut_the_preparation_did_not_foresee_is_made_when_asked(
    cache: Path, other_deck: Path
) -> None:
    """An odd width, or one past the map's, is cut when a frame asks for it, not refused."""
    design = load_design(other_deck)
    width = design.size[0] // 2
    for columns in (3, width + 4):
        face, gram = design.masked(columns)
        assert face.shape[0] == design.face.shape[0]
        assert gram.shape == design.gram.shape
