"""PettingZoo environments for every Parley game, with action masks.

`aec_env("sucker")` steps one seat at a time (every game); `parallel_env("diplomacy")`
takes every owed seat's action at once; `vector_env("diplomacy", 16)` steps many games
together with batched arrays.
"""

from .codecs import ActionCodec, Choices, CodecError, FlatCodec, FlatMasks, SlotCodec, sample_legal
from .encoders import EncoderError, JsonEncoder, ObsEncoder, SharedEncoder, feature_names
from .env import NO_ACTION, ParleyAEC, ParleyParallel, aec_env, parallel_env
from .registry import (
    codec_for,
    encoder_for,
    env_options_for,
    register_codec,
    register_encoder,
    register_env_options,
    unregister,
)
from .vector import ParleyVectorEnv, VectorStep, vector_env

__all__ = [
    "NO_ACTION",
    "ActionCodec",
    "Choices",
    "CodecError",
    "EncoderError",
    "FlatCodec",
    "FlatMasks",
    "JsonEncoder",
    "ObsEncoder",
    "ParleyAEC",
    "ParleyParallel",
    "ParleyVectorEnv",
    "SharedEncoder",
    "SlotCodec",
    "VectorStep",
    "aec_env",
    "codec_for",
    "encoder_for",
    "env_options_for",
    "feature_names",
    "parallel_env",
    "register_codec",
    "register_encoder",
    "register_env_options",
    "sample_legal",
    "unregister",
    "vector_env",
]
