"""CDP (LRN) at FP16, as NVIDIA's nv_full RTL computes it (nvdlav1 vmod/nvdla/cdp; its float units are
NVIDIA's HLS ones, models/common/nvfloat.py; the C model's HLS_CDP_lookup_fp16 follows the same order):

1. input: a NaN becomes +0 with D_NAN_FLUSH_TO_ZERO; FP16 -> FP17 (the input convertor's offset, scale and
   shifter are not used at FP16); lanes at or beyond CHANNEL are +0 (NV_NVDLA_CDP_DP_cvtin masks them);
2. FP17 -> FP32 and the square as an FP32 multiply (SQSUM_BYPASS: the FP32 value itself);
3. the sum over NORMALZ_LEN channels in FP32 adds, in fp_sum_block's order: s3 = (c-1 + c+1) + c,
   s5 = s3 + (c-2 + c+2), s7 = s5 + (c-3 + c+3), s9 = s7 + (c-4 + c+4); channels outside the cube are +0;
4. the LUT at FP16 on the sum (models/lut/fp16.py): an FP17 result;
5. FP17 multiply by the element (data first); MUL_BYPASS: the LUT result alone, or the element when it is
   a NaN (NV_NVDLA_CDP_DP_mul's NaN propagation);
6. output: FP17 -> FP16 (the output convertor's registers are not used; it never counts a saturation).
The output is FP16 bit patterns, every lane of every output atom.

Statistics (nv_full RTL): D_OUT_SATURATION counts the outputs of magnitude 65504 (NV_NVDLA_CDP_DP_cvtout,
every lane); D_NAN_INPUT_NUM / D_INF_INPUT_NUM come from NV_NVDLA_CDP_DP_nan, whose bookkeeping
`InputCounter` replays: they read 0 whatever the data. D_NAN_OUTPUT_NUM (NV_NVDLA_CDP_wdma) is not modelled
bit for bit: on a write block with an odd number of beats it also counts the lanes at the head of the second
data FIFO, which hold whatever the datapath has delivered by then (a matter of timing); the model counts
the NaN outputs it writes, reported one layer late as the RTL's register is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from models.common import nvfloat
from models.common.nvfloat import FP16, FP17, FP32
from models.lut.fp16 import cdp_lookup_fp16
from models.lut.model import LutConfig, LutResult

Bits = NDArray[np.int64]


@dataclass
class InputCounter:
    """One of NV_NVDLA_CDP_DP_nan's input counts (NaN or infinity) across layers.

    The count runs over the read beats and is cleared by every beat of the layer's last read command
    (cube_end holds for all of them), each of which also stores the counter into one of two slots and flips
    the slot: the first stores the count so far, the others 0. At the layer's done the other side of the
    ping-pong picks a slot and flips; the register takes the value picked at the done before (both update on
    the same edge), so a layer reports the previous layer's pick. The last command has at least the 4 beats
    of one FP16 atom, so both slots end at 0 whatever the data.
    """

    slot: int = 0
    pick: int = 0
    slots: list[int] = field(default_factory=lambda: [0, 0])
    picked: int = 0

    def layer(self, count: int, last_beats: int) -> int:
        """The register value at this layer's done, given the layer's count (the first beat of the last
        command stores the count of the beats before it; with 3 or more beats nothing of it survives)."""
        reported = self.picked
        for beat in range(last_beats):
            self.slots[self.slot] = count if beat == 0 else 0
            self.slot ^= 1
        self.picked = self.slots[self.pick]
        self.pick ^= 1
        return reported


# The beats of the last read command: one 32-byte atom of FP16 lanes, 8 bytes a beat (at least that many).
LAST_COMMAND_BEATS = 4


def square_sum(sq: Bits, local_size: int) -> Bits:
    """The FP32 sums of `local_size` squares centred on each channel (axis 0), pairs first."""
    half = local_size // 2
    n = sq.shape[0]
    zeros = np.zeros((half, *sq.shape[1:]), dtype=np.int64)
    padded = np.concatenate([zeros, sq, zeros])

    def at(k: int) -> Bits:   # the square k channels away from each channel
        return padded[half + k:half + k + n]

    total = nvfloat.add(FP32, nvfloat.add(FP32, at(-1), at(1)), at(0))
    for k in range(2, half + 1):
        total = nvfloat.add(FP32, total, nvfloat.add(FP32, at(-k), at(k)))
    return total


def cdp_fp16(cube: Bits, channels: int, local_size: int, sqsum_bypass: bool, mul_bypass: bool,
             nan_to_zero: bool, lut: LutConfig) -> tuple[Bits, LutResult]:
    """LRN on a cube [c, h, w] of FP16 bit patterns (c: at least `channels`): (FP16 output, the lookup)."""
    h = np.asarray(cube, dtype=np.int64) & 0xFFFF
    if nan_to_zero:
        h = np.where(FP16.is_nan(h), 0, h)
    x17 = nvfloat.fp16_to_fp17(h)
    x17[channels:] = 0
    x32 = nvfloat.fp17_to_fp32(x17)
    lut_in = x32 if sqsum_bypass else square_sum(nvfloat.mul(FP32, x32, x32), local_size)
    looked = cdp_lookup_fp16(lut_in, lut)
    if mul_bypass:
        v = np.where(FP17.is_nan(x17), x17, looked.output)
    else:
        v = nvfloat.mul(FP17, x17, looked.output)
    return nvfloat.fp17_to_fp16(v), looked
