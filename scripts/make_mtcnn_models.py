"""Regenerates data/tflite/mtcnn/ (a development tool, not run by `make test`).

Needs, outside the project's venv (TensorFlow is a development tool only):
`pip install tensorflow==2.21.0 mtcnn==1.0.0 scikit-image==0.26.0`. Run from the repository root:

    /path/to/tfvenv/bin/python scripts/make_mtcnn_models.py

MTCNN's trained weights (PyPI `mtcnn` 1.0.0, MIT, mtcnn/assets/weights/*.lz4) in the package's own Keras
networks, converted to full int8 TFLite (int8 inputs and outputs, TFLITE_BUILTINS_INT8 only) by TensorFlow's
converter, calibrated on crops of scikit-image's `astronaut` (seeded). The image goes through the package's
own detector first; its best face box gives the RNet (24 x 24) and ONet (48 x 48) crops kept as inputs
(normalized as the package does, float32: --whole-model quantizes them with the model's input scale), and
PNet runs on the whole image resized to 64 x 64. The float model's scores on the same inputs are recorded.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import mtcnn
import numpy as np
import tensorflow as tf
from mtcnn.network.onet import ONet
from mtcnn.network.pnet import PNet
from mtcnn.network.rnet import RNet
from mtcnn.utils.tensorflow import load_weights
from skimage import data

OUT = Path("data/tflite/mtcnn")
SEED = 2026
PNET_SIZE = 64


def normalized(img: np.ndarray) -> np.ndarray:
    return ((img.astype(np.float32) - 127.5) / 128).astype(np.float32)


def crop(image: np.ndarray, box: tuple[float, float, float, float], size: int) -> np.ndarray:
    """The package's extract_patches: tf.image.crop_and_resize of the normalized image (bilinear)."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    boxes = np.array([[y1 / h, x1 / w, y2 / h, x2 / w]], dtype=np.float32)
    out = tf.image.crop_and_resize(normalized(image)[None], boxes, [0], (size, size))
    return out.numpy().astype(np.float32)


def calibration(image: np.ndarray, size: int, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    h, w = image.shape[:2]
    crops = []
    for _ in range(count):
        side = rng.uniform(24, min(h, w) / 2)
        x, y = rng.uniform(0, w - side), rng.uniform(0, h - side)
        crops.append(crop(image, (x, y, x + side, y + side), size))
    return crops


def convert(model: tf.keras.Model, shape: tuple[int, ...], samples: list[np.ndarray]) -> bytes:
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    # the weights as constants: left as variables the converter keeps READ_VARIABLE ops in the model
    fn = tf.function(lambda x: model(x)).get_concrete_function(tf.TensorSpec(shape, tf.float32))
    converter = tf.lite.TFLiteConverter.from_concrete_functions([convert_variables_to_constants_v2(fn)])
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: ([s] for s in samples)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = tf.int8
    converter.inference_output_type = tf.int8
    return converter.convert()


def main() -> None:
    tf.keras.utils.set_random_seed(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    package = Path(mtcnn.__file__).parent
    licence = next(package.parent.glob("mtcnn-1.0.0.dist-info/LICENSE*"), None)
    if licence is not None:
        shutil.copy(licence, OUT / "LICENSE")
    image = data.astronaut()
    faces = mtcnn.MTCNN().detect_faces(image)
    best = max(faces, key=lambda f: f["confidence"])
    x, y, w, h = best["box"]
    side = max(w, h)
    box = (x + w / 2 - side / 2, y + h / 2 - side / 2, x + w / 2 + side / 2, y + h / 2 + side / 2)
    rng = np.random.default_rng(SEED)
    whole = tf.image.resize(normalized(image)[None], (PNET_SIZE, PNET_SIZE)).numpy().astype(np.float32)
    inputs = {"pnet": whole, "rnet": crop(image, box, 24), "onet": crop(image, box, 48)}
    nets = {"pnet": (PNet, (1, PNET_SIZE, PNET_SIZE, 3), "pnet.lz4"),
            "rnet": (RNet, (1, 24, 24, 3), "rnet.lz4"), "onet": (ONet, (1, 48, 48, 3), "onet.lz4")}
    manifest: dict[str, object] = {
        "source": "PyPI mtcnn 1.0.0 (MIT): mtcnn/assets/weights/*.lz4 in mtcnn/network/*.py",
        "converter": f"tensorflow {tf.__version__}, full int8 (TFLITE_BUILTINS_INT8, int8 input and output)",
        "image": "skimage.data.astronaut() (scikit-image; NASA, public domain)",
        "detector_face": {"box": [int(v) for v in best["box"]], "confidence": float(best["confidence"])},
        "crop_box_xyxy": [float(v) for v in box], "models": {}}
    for name, (cls, shape, weights) in nets.items():
        model = cls()
        model.build(shape)
        model.set_weights(load_weights(weights))
        size = shape[1]
        if name == "pnet":   # the whole image at sizes from 64 up, cropped to PNet's 64 x 64
            extra = [tf.image.resize(normalized(image)[None], (s, s)).numpy()[:, :PNET_SIZE, :PNET_SIZE]
                     for s in range(PNET_SIZE, PNET_SIZE + 64)]
        else:
            extra = calibration(image, size, 64, rng)
        samples = [inputs[name], *extra]
        flat = convert(model, shape, [s.astype(np.float32) for s in samples])
        (OUT / f"{name}.tflite").write_bytes(flat)
        np.save(OUT / f"{name}.input.npy", inputs[name])
        floats = [np.asarray(o).tolist() if np.asarray(o).size <= 16 else "map" for o in model(inputs[name])]
        entry = {"sha256": hashlib.sha256(flat).hexdigest(), "bytes": len(flat), "float_outputs": floats}
        manifest["models"][name] = entry  # type: ignore[index]
        print(name, len(flat), floats)
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
