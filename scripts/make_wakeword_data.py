"""Regenerates data/tflite/microwakeword/ (a development tool, not run by `make test`).

Needs, outside the project's venv: `pip install pymicro-wakeword==2.5.0 scipy` (pymicro-wakeword brings
pymicro-features, its feature front end) and `apt-get install espeak-ng`. Run from the repository root:

    /path/to/devvenv/bin/python scripts/make_wakeword_data.py

For each of the four models the package ships: the .tflite and its .json are copied as they are (sha256 in
MANIFEST.json), a phrase is synthesized with espeak-ng (voice and speed recorded), resampled to 16 kHz,
padded with 0.5 s of silence before and 1 s after, and turned into the model's input stream by the
package's own code (MicroWakeWordFeatures, then the quantization MicroWakeWord.process_streaming_prob
does: round(features / scale + zero point) per 3-frame window). Each model gets its own phrase (positive)
and another model's phrase (negative). The package's own run (its bundled TensorFlow Lite C library) on the
same audio is recorded as the reference detection.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import wave
from pathlib import Path

import numpy as np
import pymicro_wakeword
from pymicro_wakeword import MicroWakeWord, MicroWakeWordFeatures, Model
from scipy.signal import resample_poly

OUT = Path("data/tflite/microwakeword")
# (phrase, espeak-ng voice, words per minute): the settings under which the package detects each phrase
PHRASES = {"okay_nabu": ("okay nabu", "en-us", 150), "alexa": ("alexa", "en-us", 150),
           "hey_jarvis": ("hey jarvis", "en-us+f3", 150), "hey_mycroft": ("hey mycroft", "en", 150)}
NEGATIVE = {"okay_nabu": "alexa", "alexa": "hey_mycroft", "hey_jarvis": "okay_nabu",
            "hey_mycroft": "hey_jarvis"}


def speak(text: str, voice: str, speed: int) -> np.ndarray:
    wav = subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "--stdout", text],
                         capture_output=True, check=True).stdout
    with wave.open(io.BytesIO(wav)) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), np.int16)
    y = resample_poly(x.astype(np.float64), 16000, rate)
    y = np.concatenate([np.zeros(8000), y, np.zeros(16000)])
    return np.clip(np.round(y), -32768, 32767).astype(np.int16)


def stream(model: MicroWakeWord, audio: np.ndarray) -> tuple[np.ndarray, list[float]]:
    """The quantized model inputs, one per invoke, and the package's own detection values (mean over its
    sliding window) for the same audio."""
    features = MicroWakeWordFeatures()
    windows, pending, probs = [], [], []
    for f in features.process_streaming(audio.tobytes()):
        pending.append(f)
        if len(pending) == model.stride:
            q = np.round(np.concatenate(pending, axis=1) / model.input_scale + model.input_zero_point)
            windows.append(q.astype(model.input_dtype))
            pending = []
        p = model.process_streaming_prob(f)
        if p is not None and len(pending) == 0:
            probs.append(float(p))
    return np.stack(windows), probs


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    src = Path(pymicro_wakeword.__file__).parent / "models"
    dist = Path(pymicro_wakeword.__file__).parent.parent / "pymicro_wakeword-2.5.0.dist-info"
    shutil.copy(dist / "licenses" / "LICENSE", OUT / "LICENSE")
    espeak = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True).stdout.strip()
    manifest: dict[str, object] = {"source": "PyPI pymicro-wakeword 2.5.0 (Apache-2.0), models/*.tflite|json",
                                   "espeak-ng": espeak, "models": {}}
    for m in Model:
        name = m.value
        for ext in ("tflite", "json"):
            shutil.copy(src / f"{name}.{ext}", OUT / f"{name}.{ext}")
        digest = hashlib.sha256((OUT / f"{name}.tflite").read_bytes()).hexdigest()
        entry: dict[str, object] = {"sha256": digest}
        for kind, phrase_of in (("positive", name), ("negative", NEGATIVE[name])):
            text, voice, speed = PHRASES[phrase_of]
            model = MicroWakeWord.from_builtin(m)
            inputs, probs = stream(model, speak(text, voice, speed))
            np.save(OUT / f"{name}.{kind}.npy", inputs)
            entry[kind] = {"phrase": text, "voice": voice, "speed": speed, "invokes": len(inputs),
                           "package_max_mean_probability": round(max(probs), 4),
                           "package_detects": max(probs) > model.probability_cutoff}
        manifest["models"][name] = entry  # type: ignore[index]
        print(name, entry)
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
