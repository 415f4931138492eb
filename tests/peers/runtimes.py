"""The runtimes of the wider conformance matrix, as engines of tests/peers/run.py: each
runs a case of padkit's exported suite through the runtime's own ONNX import and gives its
first output as a numpy array.

    openvino    OpenVINO's `Core.read_model` and `compile_model(…, "CPU")`
    tinygrad    tinygrad's `OnnxRunner` (tinygrad.nn.onnx) on its CPU device, which compiles
                its kernels with clang
    tvm         TVM Relax's ONNX frontend (`relax.frontend.onnx.from_onnx`), compiled for
                `llvm` and run on its virtual machine
    onnx2torch  onnx2torch's `convert`, run by PyTorch on the CPU
    rten        rten 0.27, a Rust runtime, through tools/rten-peer's `--run` (a release
                build at $RTEN_PEER or target/release/rten-peer), which grades the suite
                itself; here for the defects page's reducer and reproducers
    onnx-reference-1.24
                the reference evaluator of onnx's next release (onnx-weekly, as the
                module onnx; tests/peers/requirements-reference.txt), which padkit's
                `onnx:` classification of the cases is read from

Versions are pinned in tests/peers/requirements-matrix.txt (the reference's in
tests/peers/requirements-reference.txt). `installed(name)` says whether
a runtime can be imported; run.py refuses to grade one that cannot ("not run: RUNTIME is
not installed") rather than write a column of refusals.
"""

import importlib.util
import os

# The module each runtime is imported as.
MODULES = {
    "openvino": "openvino",
    "tinygrad": "tinygrad",
    "tvm": "tvm",
    "onnx2torch": "onnx2torch",
    "onnx-reference-1.24": "onnx",
}

# onnx's next release, as its weekly build gives it: the reference evaluator padkit's
# `onnx:` classification is read from and checked against
# (docs/conformance/onnx-reference-1.24.json).
REFERENCE_NEXT = "1.24.0.dev20261026"

# The element types numpy holds only as ml_dtypes arrays (ONNX codes), which none of these
# runtimes' Python APIs take or give back: a case declaring one is untested there.
ML_DTYPES = {
    16: "bfloat16", 17: "float8e4m3fn", 18: "float8e4m3fnuz", 19: "float8e5m2",
    20: "float8e5m2fnuz", 21: "uint4", 22: "int4", 23: "float4e2m1", 24: "float8e8m0",
    25: "uint2", 26: "int2",
}


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rten_peer():
    """The tools/rten-peer binary."""
    return os.environ.get("RTEN_PEER") or os.path.join(ROOT, "target", "release", "rten-peer")


def installed(name):
    """Whether runtime `name` can be imported (rten: tools/rten-peer is built; the next
    reference: onnx-weekly REFERENCE_NEXT is the module onnx) here."""
    if name == "rten":
        return os.path.exists(rten_peer())
    if name == "onnx-reference-1.24":
        return reference_next() == REFERENCE_NEXT
    return importlib.util.find_spec(MODULES[name]) is not None


def reference_next():
    """The version of onnx-weekly where the module onnx is onnx-weekly's, else None (onnx's
    own version string reads an installed onnx's first, wherever the module comes from)."""
    import importlib.metadata

    if importlib.util.find_spec("onnx") is None:
        return None
    import onnx

    try:
        dist = importlib.metadata.distribution("onnx-weekly")
    except importlib.metadata.PackageNotFoundError:
        return None
    ours = os.path.samefile(dist.locate_file("onnx/__init__.py"), onnx.__file__)
    return dist.version if ours else None


def version(name):
    """The installed version of runtime `name`."""
    from importlib.metadata import version as dist_version

    if name == "rten":
        return "0.27.0"  # pinned by tools/rten-peer/Cargo.toml
    dist = {"tvm": "apache-tvm", "onnx-reference-1.24": "onnx-weekly"}.get(name, name)
    return dist_version(dist)


def binding_limit(name, model):
    """Why the harness cannot hand `model`'s inputs to runtime `name` or read its outputs
    back as numpy arrays, or None: types numpy holds only through ml_dtypes, and strings
    where the runtime's Python API takes no object arrays."""
    if name == "onnx-reference-1.24":
        return None  # it runs on the numpy arrays onnx.numpy_helper gives, ml_dtypes' too
    strings = {"tinygrad", "tvm", "onnx2torch"}
    for what, values in (("feed", model.graph.input), ("read", model.graph.output)):
        for v in values:
            code = v.type.tensor_type.elem_type if v.type.HasField("tensor_type") else 0
            # rten holds float32, int32, int8 and uint8 tensors, and int64 as int32
            if name == "rten" and code not in (1, 2, 3, 6, 7):
                return f"the harness cannot {what} type {code} with rten (it holds no such tensor)"
            if code in ML_DTYPES and code not in RAW.get(name, ()):
                return (f"the harness cannot {what} {ML_DTYPES[code]} with {name} (numpy holds "
                        f"it only as an ml_dtypes array, which {name}'s Python API does not take)")
            if code == 8 and name in strings:
                return f"the harness cannot {what} strings with {name} (its tensors hold numbers only)"
    return None


# The element types numpy holds only as ml_dtypes arrays that PyTorch's tensors hold (ONNX
# code: torch's dtype name), handed over as the same bytes.
TORCH_RAW = {
    16: "bfloat16", 17: "float8_e4m3fn", 18: "float8_e4m3fnuz", 19: "float8_e5m2",
    20: "float8_e5m2fnuz", 24: "float8_e8m0fnu",
}


# The element types numpy holds only as ml_dtypes arrays that tinygrad's tensors hold
# (ONNX code: tinygrad's dtype name), handed over as the same bytes, bitcast.
TINYGRAD_RAW = {
    16: "bfloat16", 17: "fp8e4m3", 18: "fp8e4m3fnuz", 19: "fp8e5m2", 20: "fp8e5m2fnuz",
}

# The element types numpy holds only as ml_dtypes arrays that TVM's tensors take and give as
# they are (`tvm.runtime.tensor`, `.numpy()`); not the 4-bit integers, whose arrays TVM
# reads as packed ("TensorCopyFromBytes: size mismatch"), nor the 2-bit ones, nor
# float4e2m1, whose tensor, handed to a compiled model, kills the process (a segfault,
# whatever the model: measured on a constant Pad of opset 23).
TVM_RAW = {16, 17, 18, 19, 20, 24}


def tinygrad_tensor(x, code):
    """`x` as a tinygrad tensor: an ml_dtypes array of ONNX type `code` (TINYGRAD_RAW) by
    its bytes, bitcast."""
    import numpy as np
    from tinygrad import Tensor, dtypes

    if code not in TINYGRAD_RAW:
        return Tensor(x)
    bits = np.uint16 if x.dtype.itemsize == 2 else np.uint8
    return Tensor(x.copy().view(bits)).bitcast(getattr(dtypes, TINYGRAD_RAW[code]))


def tinygrad_array(t, code):
    """tinygrad's output `t` of ONNX type `code` as a numpy array (TINYGRAD_RAW: the
    ml_dtypes array of its bytes)."""
    from tinygrad import dtypes

    if code not in TINYGRAD_RAW:
        return t.numpy()
    bits = dtypes.uint16 if t.dtype.itemsize == 2 else dtypes.uint8
    return t.bitcast(bits).numpy().view(ml_kind(code))


def torch_tensor(x):
    """`x` as a torch tensor: an ml_dtypes array (TORCH_RAW) by its bytes."""
    import numpy as np
    import torch

    x = x.copy()  # (C-contiguous and writeable, of the same rank: 0 too)
    if x.dtype.name in TORCH_RAW.values():
        bits = np.uint16 if x.dtype.itemsize == 2 else np.uint8
        return torch.from_numpy(x.view(bits)).view(getattr(torch, x.dtype.name))
    return torch.from_numpy(x)


def torch_array(t):
    """The torch tensor `t` as a numpy array: a dtype of TORCH_RAW as its ml_dtypes array."""
    import ml_dtypes
    import torch

    name = str(t.dtype).removeprefix("torch.")
    if name in TORCH_RAW.values():
        bits = torch.uint16 if t.element_size() == 2 else torch.uint8
        return t.contiguous().view(bits).numpy().view(getattr(ml_dtypes, name))
    return t.numpy()


# The element types numpy holds only as ml_dtypes arrays that OpenVINO's tensors hold
# (ONNX code: OpenVINO's type name, bits per element), handed over as raw bytes, packed
# as ONNX packs them (the first element in the lowest bits).
OPENVINO_RAW = {
    16: ("bf16", 16), 17: ("f8e4m3", 8), 19: ("f8e5m2", 8), 21: ("u4", 4), 22: ("i4", 4),
    23: ("f4e2m1", 4), 24: ("f8e8m0", 8), 25: ("u2", 2),
}


def ml_kind(code):
    """The ml_dtypes type onnx's numpy_helper gives for ONNX type `code` (ML_DTYPES)."""
    import ml_dtypes

    return {
        16: ml_dtypes.bfloat16, 17: ml_dtypes.float8_e4m3fn, 18: ml_dtypes.float8_e4m3fnuz,
        19: ml_dtypes.float8_e5m2, 20: ml_dtypes.float8_e5m2fnuz, 21: ml_dtypes.uint4,
        22: ml_dtypes.int4, 23: ml_dtypes.float4_e2m1fn, 24: ml_dtypes.float8_e8m0fnu,
        25: ml_dtypes.uint2, 26: ml_dtypes.int2,
    }[code]


# The bits of an element of the ONNX types held below a byte.
SUB_BYTE_BITS = {21: 4, 22: 4, 23: 4, 25: 2, 26: 2}


def onnx_bytes(x, code):
    """The ml_dtypes array `x` of ONNX type `code` as the bytes ONNX holds it in (uint8):
    one element a byte or two, or packed below a byte, the first element in the lowest
    bits."""
    import numpy as np

    raw = np.ascontiguousarray(x).reshape(-1).view(np.uint8)
    bits = SUB_BYTE_BITS.get(code)
    if bits is None:
        return raw
    per = 8 // bits
    codes = np.zeros(-(-raw.size // per) * per, np.uint8)
    codes[: raw.size] = raw & ((1 << bits) - 1)
    lanes = codes.reshape(-1, per)
    packed = np.zeros(lanes.shape[0], np.uint8)
    for k in range(per):
        packed |= lanes[:, k] << (bits * k)
    return packed


def from_onnx_bytes(raw, shape, code):
    """The bytes `raw` (uint8) of a tensor of ONNX type `code` and `shape`, as ONNX holds
    them (onnx_bytes), as the ml_dtypes array onnx's numpy_helper gives."""
    import numpy as np

    kind = ml_kind(code)
    bits = SUB_BYTE_BITS.get(code)
    if bits is None:
        return raw.view(kind).reshape(shape)
    n = int(np.prod(shape, dtype=np.int64))
    per = 8 // bits
    lanes = [(raw >> (bits * k)) & ((1 << bits) - 1) for k in range(per)]
    codes = np.stack(lanes, axis=1).reshape(-1)[:n].astype(np.uint8)
    if code in (22, 26):  # int4, int2: the code's two's complement
        sign = 1 << (bits - 1)
        return ((codes ^ sign).astype(np.int8) - sign).astype(kind).reshape(shape)
    if code == 23:  # float4e2m1: the code is the value's bits
        return codes.view(kind).reshape(shape)
    return codes.astype(kind).reshape(shape)


# The types each runtime is handed as raw bytes or as ml_dtypes arrays (binding_limit).
RAW = {
    "openvino": set(OPENVINO_RAW), "onnx2torch": set(TORCH_RAW),
    "tinygrad": set(TINYGRAD_RAW), "tvm": TVM_RAW,
}


def openvino_tensor(x, code):
    """The ml_dtypes array `x` as an OpenVINO tensor of ONNX type `code` (OPENVINO_RAW)."""
    import numpy as np
    import openvino as ov

    name, _ = OPENVINO_RAW[code]
    tensor = ov.Tensor(getattr(ov.Type, name), ov.Shape(list(x.shape)))
    tensor.data.view(np.uint8).reshape(-1)[:] = onnx_bytes(x, code)
    return tensor


def openvino_array(tensor, code):
    """OpenVINO's output `tensor` of ONNX type `code` (OPENVINO_RAW) as the ml_dtypes array
    onnx's numpy_helper gives for that type."""
    import numpy as np

    raw = np.array(tensor.data, copy=True).view(np.uint8).reshape(-1)
    return from_onnx_bytes(raw, tuple(tensor.shape), code)


def run_openvino(model_path, model, feeds):
    import numpy as np
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(core.read_model(model_path), "CPU")
    request = compiled.create_infer_request()
    inputs = {}
    for k, graph_input in enumerate(model.graph.input):
        x, code = feeds[graph_input.name], graph_input.type.tensor_type.elem_type
        # (a copy: OpenVINO shares the memory of a numpy array it is handed, which must be
        # writeable, and onnx's numpy_helper gives some read-only)
        inputs[k] = openvino_tensor(x, code) if code in OPENVINO_RAW else np.array(x, copy=True)
    request.infer(inputs)
    out = request.get_output_tensor(0)
    code = model.graph.output[0].type.tensor_type.elem_type
    return openvino_array(out, code) if code in OPENVINO_RAW else np.array(out.data, copy=True)


def run_tinygrad(model_path, model, feeds):
    os.environ.setdefault("DEV", "CPU")
    from tinygrad.nn.onnx import OnnxRunner

    runner = OnnxRunner(model_path)
    code = {i.name: i.type.tensor_type.elem_type for i in model.graph.input}
    out = runner({name: tinygrad_tensor(x, code[name]) for name, x in feeds.items()})
    y = model.graph.output[0]
    return tinygrad_array(out[y.name], y.type.tensor_type.elem_type)


def run_tvm(model_path, model, feeds):
    import tvm
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    mod = from_onnx(model, keep_params_in_input=False)
    vm = relax.VirtualMachine(tvm.compile(mod, target="llvm"), tvm.cpu())
    inputs = [tvm.runtime.tensor(feeds[i.name]) for i in model.graph.input]
    out = vm["main"](*inputs)
    if isinstance(out, (list, tuple)) or type(out).__name__ == "Array":
        out = out[0]
    return out.numpy()


def run_onnx2torch(model_path, model, feeds):
    import torch
    from onnx2torch import convert

    net = convert(model).eval()
    with torch.no_grad():
        out = net(*[torch_tensor(feeds[i.name]) for i in model.graph.input])
    if isinstance(out, (list, tuple)):
        out = out[0]
    return torch_array(out)


def run_rten(model_path, model, feeds):
    import shutil
    import subprocess
    import tempfile

    import onnx
    from onnx import numpy_helper

    with tempfile.TemporaryDirectory() as d:
        shutil.copy(model_path, os.path.join(d, "model.onnx"))
        for k, gi in enumerate(model.graph.input):
            tensor = numpy_helper.from_array(feeds[gi.name], gi.name)
            onnx.save_tensor(tensor, os.path.join(d, f"input_{k}.pb"))
        out = os.path.join(d, "out.pb")
        done = subprocess.run([rten_peer(), "--run", d, out], capture_output=True, text=True)
        if done.returncode < 0 or done.returncode == 101:
            os.abort()  # rten died or panicked: so does the worker, a crash of the case
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip())
        return numpy_helper.to_array(onnx.load_tensor(out))


def run_reference(model_path, model, feeds):
    from onnx.reference import ReferenceEvaluator

    return ReferenceEvaluator(model).run(None, feeds)[0]


RUNNERS = {
    "openvino": run_openvino,
    "tinygrad": run_tinygrad,
    "tvm": run_tvm,
    "onnx2torch": run_onnx2torch,
    "rten": run_rten,
    "onnx-reference-1.24": run_reference,
}
