"""Training entry points: the card finder (Ultralytics YOLO-OBB from a model yaml) and the corner-index classifier.

Both run on the CPU here, are seeded, write checkpoints as they go and can be
resumed. Torch and Ultralytics are imported inside the functions: they live
in the separate training environment (``pip install -e .[train]``), not in
the runtime one.

    euchre-table train detector --data work-data/datasets/obb/data.yaml --epochs 30 --imgsz 416
    euchre-table train detector --resume work-data/runs/card-obb/weights/last.pt
    euchre-table train classifier --art work-data/art --epochs 12
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vision.cardcrop import CLASSIFIER_CLASSES, CROP_H, CROP_W

DEFAULT_MODEL_YAML = str(Path(__file__).parent / "synth" / "yolov8t-card-obb.yaml")


def _passive_omp() -> None:
    """Idle OpenMP threads sleep instead of spinning. On a shared 2-core machine spinning threads burn
    the time slices the busy ones need: measured here, a YOLO batch took 14 s with spinning and 5 s without.
    Must run before torch is imported."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def _set_threads(threads: int) -> None:
    import torch

    torch.set_num_threads(threads)
    os.environ["OMP_NUM_THREADS"] = str(threads)


def train_detector(
    data: Path | None,
    *,
    epochs: int = 30,
    imgsz: int = 416,
    model_yaml: str = DEFAULT_MODEL_YAML,
    seed: int = 0,
    resume: Path | None = None,
    project: Path = Path("work-data/runs"),
    name: str = "card-obb",
    batch: int = 16,
    workers: int = 2,
    threads: int = 2,
    fraction: float = 1.0,
    time_hours: float | None = None,
    init_weights: Path | None = None,
    lr0: float | None = None,
) -> Path:
    """Train the card finder from ``model_yaml`` (no pretrained weights); returns the run folder.

    ``resume`` continues an interrupted run from its ``last.pt`` (Ultralytics
    keeps epochs, optimiser and schedule in it). ``time_hours`` bounds the
    run by wall-clock time instead of epochs (Ultralytics fits the learning
    rate schedule to it). ``init_weights`` starts from an earlier run's
    weights (a fine-tune of this project's own model) instead of the yaml;
    ``lr0`` then sets a small starting learning rate (AdamW).
    """
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "false")
    _passive_omp()
    from ultralytics import YOLO

    _set_threads(threads)  # Ultralytics picks 1 thread on a 2-core machine; 2 is ~1.9x faster here

    def keep_threads(_trainer: Any) -> None:
        _set_threads(threads)

    if resume is not None:
        model = YOLO(str(resume))
        model.add_callback("on_pretrain_routine_end", keep_threads)
        model.add_callback("on_train_epoch_start", keep_threads)
        model.train(resume=True)
    else:
        if data is None:
            raise ValueError("data is required unless resuming")
        model = YOLO(str(init_weights) if init_weights else model_yaml, task="obb")
        model.add_callback("on_pretrain_routine_end", keep_threads)
        model.add_callback("on_train_epoch_start", keep_threads)
        model.train(
            data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, workers=workers, device="cpu",
            seed=seed, deterministic=True, project=str(project.resolve()), name=name, exist_ok=True,
            pretrained=init_weights is not None, amp=False, plots=False, save_period=1, patience=100,
            fraction=fraction,
            # the scenes already hold any rotation, perspective and lighting; keep Ultralytics' own
            # augmentation mild so labels stay exact; no mosaic: at a small input it shrinks cards to specks
            degrees=0.0, fliplr=0.5, flipud=0.0, mosaic=0.0, close_mosaic=0, scale=0.3, translate=0.1,
            hsv_h=0.01, hsv_s=0.4, hsv_v=0.3, cos_lr=False, val=True, cache="ram",
            **({"time": time_hours} if time_hours else {}),
            **({"optimizer": "AdamW", "lr0": lr0, "warmup_epochs": 0.0} if lr0 else {"warmup_epochs": 0.5}),
        )
    trainer = model.trainer
    return Path(trainer.save_dir) if trainer is not None else project / name


def export_detector(weights: Path, imgsz: int, out: Path, opset: int = 17) -> Path:
    """Export trained OBB weights to ONNX (simplified where onnxslim is installed) as ``out``.

    Ultralytics writes the ONNX file beside the weights it loads, so the export runs on a copy in a
    scratch folder: exporting ``models/card-obb.pt`` never overwrites the shipped ``card-obb.onnx``.
    """
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "false")
    import shutil
    import tempfile

    from ultralytics import YOLO

    with tempfile.TemporaryDirectory(prefix="euchre-export-") as scratch:
        copy = Path(scratch) / weights.name
        shutil.copyfile(weights, copy)
        model = YOLO(str(copy))
        try:
            path = model.export(format="onnx", imgsz=imgsz, opset=opset, simplify=True, dynamic=False)
        except Exception:  # noqa: BLE001 - onnxslim missing or failing: a plain export still runs everywhere
            path = model.export(format="onnx", imgsz=imgsz, opset=opset, simplify=False, dynamic=False)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out)
    return out


# ---------------------------------------------------------------- corner-index classifier


# Where build_classifier's residual blocks go: after the last convolution (index 11-13), before the head.
_HEAD_START = 14


def build_classifier(num_classes: int = len(CLASSIFIER_CLASSES), blocks: int = 0) -> Any:
    """A small CNN for 3x64x48 corner crops (0.17 M parameters, ~25 M multiply-adds: under a millisecond).

    ``blocks``: residual blocks of two 3x3 convolutions at 128 channels on the 8x6 grid, after the last
    convolution (each 0.30 M parameters and ~14 M multiply-adds more). Each block's last batch norm starts
    with zero scale, so a deepened network starts out computing what the shallower one did
    (:func:`deepen_state`).
    """
    from torch import nn

    def conv(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True)]

    body: list[nn.Module] = [
        *conv(3, 32, stride=2),  # 32x24: a strided stem, the 2-core CPU trains it 3x faster
        *conv(32, 48), nn.MaxPool2d(2),  # 16x12
        *conv(48, 96), nn.MaxPool2d(2),  # 8x6
        *conv(96, 128),
    ]
    assert len(body) == _HEAD_START
    return nn.Sequential(
        *body, *(_residual_block(128) for _ in range(blocks)),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, num_classes),
    )


def _residual_block(channels: int) -> Any:
    """x + BN(conv(ReLU(BN(conv(x))))), the last batch norm's scale zero (the block starts as the identity).

    No ReLU after the sum: the block's input is a ReLU's output already, and the identity stays exact."""
    from torch import nn

    class Residual(nn.Module):  # type: ignore[misc,unused-ignore]  # torch is Any where it is not installed
        def __init__(self) -> None:
            super().__init__()
            self.f = nn.Sequential(
                nn.Conv2d(channels, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels),
                nn.ReLU(inplace=True),
                nn.Conv2d(channels, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels),
            )
            nn.init.zeros_(self.f[4].weight)

        def forward(self, x: Any) -> Any:
            return x + self.f(x)

    return Residual()


def deepen_state(state: dict[str, Any], blocks: int) -> dict[str, Any]:
    """A shallower classifier's state dict with its head's keys moved past ``blocks`` new blocks, to load
    with ``strict=False`` into ``build_classifier(blocks=...)`` (the blocks keep their starting weights)."""
    out: dict[str, Any] = {}
    for key, value in state.items():
        index, _, rest = key.partition(".")
        if index.isdigit() and int(index) >= _HEAD_START:
            key = f"{int(index) + blocks}.{rest}"
        out[key] = value
    return out


def load_classifier(checkpoint: Path) -> Any:
    """``build_classifier`` with a checkpoint's weights (its ``blocks``, 0 where it has none), in eval mode."""
    import torch

    ck = torch.load(checkpoint, weights_only=False)
    model = build_classifier(num_classes=len(ck.get("classes", CLASSIFIER_CLASSES)), blocks=int(ck.get("blocks", 0)))
    model.load_state_dict(ck["model"])
    model.eval()
    return model


def _augment(x: Any, rng: Any, mono: float = 0.0, warp: float = 0.0) -> Any:
    """Cheap extra variety per batch: shifts of a few pixels and brightness/contrast changes; where
    ``mono`` > 0, that share of the crops with their print turned to one ink (:func:`_one_ink`); where
    ``warp`` > 0, that share turned, sheared and scaled (:func:`_warp`)."""
    import numpy as np

    if mono > 0:
        x = _one_ink(x, rng, mono)
    if warp > 0:
        x = _warp(x, rng, warp)
    dy, dx = (int(v) for v in rng.integers(-3, 4, 2))
    x = np.roll(x, (dy, dx), axis=(2, 3))
    a = rng.uniform(0.75, 1.2, (len(x), 1, 1, 1)).astype(np.float32)
    b = rng.uniform(-0.12, 0.12, (len(x), 1, 1, 1)).astype(np.float32)
    return np.clip(x * a + b, 0.0, 1.2).astype(np.float32)


WARP_DEGREES = 20.0  # the largest turn of a warped crop
WARP_SHEAR = 0.2  # the largest shear (horizontal and vertical, each)
WARP_SCALE = (0.85, 1.15)  # the range of its scale


def _warp(x: Any, rng: Any, share: float) -> Any:
    """``share`` of the crops (N, 3, H, W) turned by up to :data:`WARP_DEGREES`, sheared by up to
    :data:`WARP_SHEAR` and scaled within :data:`WARP_SCALE` about their middle, the edge pixels repeated
    beyond the crop. A corner crop is cut along the finder's outline, and that outline is off by a few degrees
    and a few per cent of the card (more on a card held up, bent, or seen at a slant), so the index lies turned
    and skewed in the crop the reader sees; the rendered crops mostly hold it square."""
    import cv2
    import numpy as np

    pick = np.flatnonzero(rng.random(len(x)) < share)
    if len(pick) == 0:
        return x
    x = x.copy()
    h, w = x.shape[2], x.shape[3]
    centre = np.array([w / 2.0, h / 2.0])
    for i in pick:
        angle = np.deg2rad(rng.uniform(-WARP_DEGREES, WARP_DEGREES))
        shx, shy = rng.uniform(-WARP_SHEAR, WARP_SHEAR, 2)
        scale = rng.uniform(*WARP_SCALE)
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        a = scale * turn @ np.array([[1.0, shx], [shy, 1.0]])
        m = np.hstack([a, (centre - a @ centre)[:, None]]).astype(np.float32)
        img = np.ascontiguousarray(x[i].transpose(1, 2, 0))
        out = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        x[i] = out.transpose(2, 0, 1)
    return x


def _one_ink(x: Any, rng: Any, share: float) -> Any:
    """``share`` of the crops (N, 3, H, W, RGB, paper near 1) with every print in one ink: grey, or half of
    them a random colour, so red and black print look alike and a suit must be told by its shape, as on a
    deck printed all in gold (read turned over, ``cardcrop.lightness_inverted``: grey print on white) or a
    four-colour deck."""
    import numpy as np

    pick = np.flatnonzero(rng.random(len(x)) < share)
    if len(pick) == 0:
        return x
    x = x.copy()
    sub = x[pick]
    grey = 0.299 * sub[:, 0] + 0.587 * sub[:, 1] + 0.114 * sub[:, 2]  # (n, H, W)
    ink = np.clip(1.0 - grey, 0.0, 1.0)[:, None]
    colour = rng.uniform(0.0, 0.7, (len(pick), 3, 1, 1))
    colour -= colour.min(axis=1, keepdims=True)  # a hue, and the ink still dark in one channel
    colour *= rng.random((len(pick), 1, 1, 1)) < 0.5
    x[pick] = (grey[:, None] + ink * colour).astype(np.float32)
    return x


def train_classifier(
    crops: Path,
    out_dir: Path,
    *,
    epochs: int = 6,
    batch: int = 128,
    seed: int = 0,
    threads: int = 2,
    resume: bool = False,
    lr: float = 3e-3,
    init_weights: Path | None = None,
    teacher: Path | None = None,
    distill: float = 1.0,
    temperature: float = 2.0,
    blocks: int | None = None,
    classes: Sequence[str] = CLASSIFIER_CLASSES,
    mono_ink: float = 0.0,
    warp: float = 0.0,
) -> Path:
    """Train the corner classifier on the crop chunks in ``crops`` (``python -m lab.synth.crops``).

    ``classes``: what the labels index (the checkpoint records them); the face reader
    (``vision.face_reader.FACE_CLASSES``, crops from ``python -m lab.synth.face_crops``) trains with the same
    network and loop.

    ``train_*.npz`` come from the training decks; ``heldout_*.npz`` (the
    held-out decks) measure accuracy on decks it never saw. Checkpoints
    ``last.pt`` (every epoch) and ``best.pt`` go to ``out_dir``; ``resume``
    continues from ``last.pt``; ``init_weights`` starts from an earlier run's weights (a fine-tune, with a
    smaller ``lr``) instead of random ones.

    ``teacher`` (an earlier run's weights) keeps what that classifier knew while the new crops teach more
    (learning without forgetting, Li and Hoiem 2016): on every training crop the teacher names right, the loss
    adds ``distill`` times the KL divergence from the teacher's softened prediction (``temperature``) to
    the student's, scaled by the temperature squared (Hinton et al. 2015). Where the teacher is wrong, as on
    an index the new labels call blurred past reading, the labels alone teach.

    ``blocks``: residual blocks at the end of the body (:func:`build_classifier`); None: as many as
    ``init_weights`` has (0 from scratch). Starting from weights with fewer, the new ones start as the
    identity, so the deeper classifier starts out reading as the one it came from.

    ``mono_ink``: the share of training crops shown with all their print in one ink (:func:`_one_ink`), so
    that suits are learnt by their shapes as well as their colours (0: none, as before the option).

    ``warp``: the share of training crops turned, sheared and scaled (:func:`_warp`), so an index is named
    where the finder's outline lies off the card's (0: none, as before the option).
    """
    _passive_omp()
    import numpy as np
    import torch
    from torch import nn

    from lab.synth.crops import load_crops

    _set_threads(threads)
    torch.manual_seed(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    x, y = load_crops(crops, "train")
    xv, yv = load_crops(crops, "heldout")
    xv_t, yv_t = torch.from_numpy(xv), torch.from_numpy(yv)
    init = torch.load(init_weights, weights_only=False) if init_weights is not None else None
    init_blocks = int(init.get("blocks", 0)) if init is not None else 0
    if blocks is None:
        blocks = init_blocks
    if blocks < init_blocks:
        raise ValueError(f"{init_weights}: it has {init_blocks} residual blocks, more than the {blocks} asked for")
    model = build_classifier(num_classes=len(classes), blocks=blocks)
    if init is not None:
        missing, unexpected = model.load_state_dict(deepen_state(init["model"], blocks - init_blocks), strict=False)
        fresh = {str(_HEAD_START + i) for i in range(init_blocks, blocks)}  # the new blocks' indices
        if unexpected or any(k.split(".")[0] not in fresh for k in missing):
            raise ValueError(f"{init_weights}: weights do not fit the classifier ({missing + unexpected})")
    soft: Any = None  # the teacher's softened prediction on each training crop (with a teacher)
    kept = np.zeros(len(y), dtype=bool)  # where the teacher names the crop right: only there it is distilled
    if teacher is not None:
        soft, kept = _teacher_targets(teacher, x, y, temperature, len(classes))
        print(json.dumps({"teacher": str(teacher), "right_on": round(float(kept.mean()), 4)}), flush=True)
    steps_per_epoch = math.ceil(len(y) / batch)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch, pct_start=0.1)
    start_epoch, best = 0, -1.0
    last = out_dir / "last.pt"
    if resume and last.exists():
        ck = torch.load(last, weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        sched.load_state_dict(ck["sched"])
        start_epoch, best = ck["epoch"] + 1, ck["best"]
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    with open(out_dir / "log.jsonl", "a") as log:
        for epoch in range(start_epoch, epochs):
            t0 = time.time()
            rng = np.random.default_rng([seed, epoch])
            model.train()
            perm = rng.permutation(len(y))
            total_loss = 0.0
            for k in range(steps_per_epoch):
                idx = perm[k * batch:(k + 1) * batch]
                xb = torch.from_numpy(_augment(x[idx], rng, mono_ink, warp))
                yb = torch.from_numpy(y[idx])
                opt.zero_grad()
                logits = model(xb)
                loss = loss_fn(logits, yb)
                if soft is not None and kept[idx].any():
                    keep = torch.from_numpy(kept[idx])
                    student = torch.log_softmax(logits[keep] / temperature, dim=1)
                    target = torch.from_numpy(soft[idx[kept[idx]]])
                    kl = nn.functional.kl_div(student, target, reduction="batchmean")
                    loss = loss + distill * temperature**2 * kl * (int(keep.sum()) / len(idx))
                loss.backward()
                opt.step()
                sched.step()
                total_loss += loss.item() * len(idx)
                if k % 100 == 0:
                    print(json.dumps({"epoch": epoch, "step": k, "of": steps_per_epoch, "loss": loss.item(),
                                      "s": round(time.time() - t0, 1)}), flush=True)
            model.eval()
            with torch.no_grad():
                pred = torch.cat([model(xv_t[i:i + 512]).argmax(1) for i in range(0, len(yv_t), 512)])
            acc = float((pred == yv_t).float().mean())
            rec = {"epoch": epoch, "loss": total_loss / len(y), "heldout_acc": acc,
                   "epoch_s": round(time.time() - t0, 1)}
            print(json.dumps(rec), flush=True)
            log.write(json.dumps(rec) + "\n")
            log.flush()
            ck = {"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": epoch,
                  "best": max(best, acc), "classes": list(classes), "blocks": blocks}
            torch.save(ck, last)
            if acc >= best:
                best = acc
                torch.save(ck, out_dir / "best.pt")
    return out_dir / "best.pt"


def _teacher_targets(
    teacher: Path, x: Any, y: Any, temperature: float, n_classes: int = len(CLASSIFIER_CLASSES)
) -> tuple[Any, Any]:
    """The teacher's softened prediction on each crop (unaugmented), and where its top class is the label."""
    import numpy as np
    import torch

    net = load_classifier(teacher)
    soft = np.empty((len(y), n_classes), dtype=np.float32)
    with torch.no_grad():
        for i in range(0, len(y), 1024):
            logits = net(torch.from_numpy(x[i:i + 1024]))
            soft[i:i + 1024] = torch.softmax(logits / temperature, dim=1).numpy()
    return soft, soft.argmax(1) == y


def export_classifier(checkpoint: Path, out: Path, opset: int = 17) -> Path:
    """Export the classifier (or the face reader) to ONNX: input ``crops`` [B, 3, 64, 48] float32, output
    ``logits`` [B, classes] (34 for the corner classifier, 29 for the face reader)."""
    import torch

    model = load_classifier(checkpoint)
    dummy = torch.zeros(4, 3, CROP_H, CROP_W)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model, (dummy,), str(out), input_names=["crops"], output_names=["logits"], opset_version=opset,
        dynamic_axes={"crops": {0: "batch"}, "logits": {0: "batch"}}, dynamo=False,
    )
    return out
