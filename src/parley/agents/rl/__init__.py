"""PettingZoo environments for every Parley game, with action masks.

`aec_env("sucker")` steps one seat at a time (every game); `parallel_env("diplomacy")`
takes every owed seat's action at once.
"""

from .codecs import ActionCodec, Choices, CodecError, FlatCodec, SlotCodec
from .encoders import EncoderError, JsonEncoder, ObsEncoder
from .env import ParleyAEC, ParleyParallel, aec_env, parallel_env
from .registry import codec_for, encoder_for, register_codec, register_encoder, unregister

__all__ = [
    "ActionCodec",
    "Choices",
    "CodecError",
    "EncoderError",
    "FlatCodec",
    "JsonEncoder",
    "ObsEncoder",
    "ParleyAEC",
    "ParleyParallel",
    "SlotCodec",
    "aec_env",
    "codec_for",
    "encoder_for",
    "parallel_env",
    "register_codec",
    "register_encoder",
    "unregister",
]
