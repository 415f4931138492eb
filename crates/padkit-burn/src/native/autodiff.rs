//! The native pad under autodiff: the forward of the inner backend, and a backward that
//! runs padkit's adjoint (shape-only: nothing is checkpointed).

use burn::backend::autodiff::checkpoint::{base::Checkpointer, strategy::CheckpointStrategy};
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind, unary};
use burn::backend::tensor::{BoolTensor, FloatTensor, IntTensor};
use burn::backend::{Autodiff, TensorMetadata};
use padkit::PadSpec;

use super::{Checked, PadBackend};

#[derive(Debug)]
struct PadBackward;

impl<B: PadBackend> Backward<B, 1> for PadBackward {
    type State = (Vec<usize>, PadSpec);

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let (in_shape, spec) = ops.state;
        unary::<B, _>(ops.parents, ops.node, grads, |grad| {
            B::padkit_pad_float_backward(grad, in_shape, spec)
        });
    }
}

impl<B: PadBackend, C: CheckpointStrategy> PadBackend for Autodiff<B, C> {
    fn padkit_pad_float(x: FloatTensor<Self>, checked: Checked) -> FloatTensor<Self> {
        let (primitive, guard) = x.into_parts();
        let in_shape = primitive.shape().to_vec();
        match PadBackward.prepare::<C>([guard]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => {
                let spec = checked.spec.clone();
                let out = B::padkit_pad_float(primitive, checked);
                prep.finish((in_shape, spec), out)
            }
            OpsKind::UnTracked(prep) => prep.finish(B::padkit_pad_float(primitive, checked)),
        }
    }

    fn padkit_pad_int(x: IntTensor<Self>, checked: Checked) -> IntTensor<Self> {
        B::padkit_pad_int(x, checked)
    }

    fn padkit_pad_bool(x: BoolTensor<Self>, checked: Checked) -> BoolTensor<Self> {
        B::padkit_pad_bool(x, checked)
    }
}
