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
from pathlib import Path
from typing import Any

from vision.cardcrop import CLASSIFIER_CLASSES, CROP_H, CROP_W

DEFAULT_MODEL_YAML = str(Path(__file__).parent / "synth" / "yolov8t-card-obb.yaml")


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
) -> Path:
    """Train the card finder from ``model_yaml`` (no pretrained weights); returns the run folder.

    ``resume`` continues an interrupted run from its ``last.pt`` (Ultralytics
    keeps epochs, optimiser and schedule in it). ``time_hours`` bounds the
    run by wall-clock time instead of epochs (Ultralytics fits the learning
    rate schedule to it).
    """
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "false")
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
        model = YOLO(model_yaml, task="obb")
        model.add_callback("on_pretrain_routine_end", keep_threads)
        model.add_callback("on_train_epoch_start", keep_threads)
        model.train(
            data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, workers=workers, device="cpu",
            seed=seed, deterministic=True, project=str(project.resolve()), name=name, exist_ok=True,
            pretrained=False, amp=False, plots=False, save_period=1, patience=100, fraction=fraction,
            # the scenes already hold any rotation, perspective and lighting; keep Ultralytics' own
            # augmentation mild so labels stay exact
            # augmentation mild so labels stay exact; no mosaic: at a small input it shrinks cards to specks
            degrees=0.0, fliplr=0.5, flipud=0.0, mosaic=0.0, close_mosaic=0, scale=0.3, translate=0.1,
            hsv_h=0.01, hsv_s=0.4, hsv_v=0.3, cos_lr=False, warmup_epochs=0.5, val=True, cache="ram",
            **({"time": time_hours} if time_hours else {}),
        )
    trainer = model.trainer
    return Path(trainer.save_dir) if trainer is not None else project / name


def export_detector(weights: Path, imgsz: int, out: Path, opset: int = 17) -> Path:
    """Export trained OBB weights to ONNX (simplified where onnxslim is installed) next to ``out``."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "false")
    import shutil

    from ultralytics import YOLO

    model = YOLO(str(weights))
    try:
        path = model.export(format="onnx", imgsz=imgsz, opset=opset, simplify=True, dynamic=False)
    except Exception:  # noqa: BLE001 - onnxslim missing or failing: a plain export still runs everywhere
        path = model.export(format="onnx", imgsz=imgsz, opset=opset, simplify=False, dynamic=False)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, out)
    return out


# ---------------------------------------------------------------- corner-index classifier


def build_classifier(num_classes: int = len(CLASSIFIER_CLASSES)) -> Any:
    """A small CNN for 3x64x48 corner crops (~0.2 M parameters; well under a millisecond on a CPU)."""
    from torch import nn

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        )

    return nn.Sequential(
        block(3, 24), nn.MaxPool2d(2),  # 32x24
        block(24, 48), nn.MaxPool2d(2),  # 16x12
        block(48, 96), nn.MaxPool2d(2),  # 8x6
        block(96, 128),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, num_classes),
    )


def train_classifier(
    art: Path | None,
    out_dir: Path,
    *,
    epochs: int = 12,
    per_epoch: int = 24000,
    val_count: int = 4000,
    batch: int = 128,
    seed: int = 0,
    threads: int = 2,
    resume: bool = False,
    procs: int = 1,
) -> Path:
    """Train the corner classifier on crops generated on the fly from the training decks.

    Each epoch draws fresh crops (``per_epoch`` of them), so the network never
    sees the same augmented crop twice. Checkpoints ``last.pt`` / ``best.pt``
    go to ``out_dir``; ``resume`` continues from ``last.pt``.
    """
    import numpy as np
    import torch
    from torch import nn

    from vision.synth.crops import CropSampler

    _set_threads(threads)
    torch.manual_seed(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    sampler = CropSampler(art, split="train", seed=seed)
    val_sampler = CropSampler(art, split="train", seed=seed + 10_000)
    xv, yv = val_sampler.batch(val_count, procs=procs)
    xv_t, yv_t = torch.from_numpy(xv), torch.from_numpy(yv)
    model = build_classifier()
    steps_per_epoch = math.ceil(per_epoch / batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * steps_per_epoch, pct_start=0.15)
    start_epoch, best = 0, 0.0
    last = out_dir / "last.pt"
    if resume and last.exists():
        ck = torch.load(last, weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        sched.load_state_dict(ck["sched"])
        start_epoch, best = ck["epoch"] + 1, ck["best"]
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    log = open(out_dir / "log.jsonl", "a")
    for epoch in range(start_epoch, epochs):
        t0 = time.time()
        x, y = sampler.batch(per_epoch, procs=procs, epoch=epoch)
        gen_s = time.time() - t0
        model.train()
        perm = np.random.default_rng(seed + epoch).permutation(len(y))
        total_loss = 0.0
        for k in range(steps_per_epoch):
            idx = perm[k * batch:(k + 1) * batch]
            xb, yb = torch.from_numpy(x[idx]), torch.from_numpy(y[idx])
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            sched.step()
            total_loss += float(loss) * len(idx)
        model.eval()
        with torch.no_grad():
            pred = torch.cat([model(xv_t[i:i + 512]).argmax(1) for i in range(0, len(yv_t), 512)])
        acc = float((pred == yv_t).float().mean())
        rec = {"epoch": epoch, "loss": total_loss / len(y), "val_acc": acc, "gen_s": round(gen_s, 1),
               "epoch_s": round(time.time() - t0, 1)}
        print(json.dumps(rec), flush=True)
        log.write(json.dumps(rec) + "\n")
        log.flush()
        ck = {"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": epoch,
              "best": max(best, acc), "classes": list(CLASSIFIER_CLASSES)}
        torch.save(ck, last)
        if acc >= best:
            best = acc
            torch.save(ck, out_dir / "best.pt")
    return out_dir / "best.pt"


def export_classifier(checkpoint: Path, out: Path, opset: int = 17) -> Path:
    """Export the classifier to ONNX: input ``crops`` [B, 3, 64, 48] float32, output ``logits`` [B, 34]."""
    import torch

    model = build_classifier()
    model.load_state_dict(torch.load(checkpoint, weights_only=False)["model"])
    model.eval()
    dummy = torch.zeros(4, 3, CROP_H, CROP_W)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model, (dummy,), str(out), input_names=["crops"], output_names=["logits"], opset_version=opset,
        dynamic_axes={"crops": {0: "batch"}, "logits": {0: "batch"}}, dynamo=False,
    )
    return out
