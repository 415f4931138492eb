//! The native pad on Flex: padkit's kernel on Flex's buffer.

use burn::backend::Flex;
use burn::backend::flex::{FlexTensor, Layout};
use burn::tensor::Shape;
use padkit::Plan;

use super::{CHECKED, Checked, PadBackend};
use crate::Fill;
use crate::counters::{Counter, count};
use crate::fill::width;
use crate::host::pad_host;

impl PadBackend for Flex {
    fn padkit_pad_float(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.plan, checked.fill)
    }

    fn padkit_pad_int(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.plan, checked.fill)
    }

    fn padkit_pad_bool(x: FlexTensor, checked: Checked) -> FlexTensor {
        flex_pad(x, &checked.plan, checked.fill)
    }
}

/// Pads a Flex tensor of any kind, reading its buffer in place (strided views are made
/// contiguous first).
fn flex_pad(x: FlexTensor, plan: &Plan, fill: Fill) -> FlexTensor {
    count(Counter::Host);
    let x = if x.is_contiguous() {
        x
    } else {
        x.to_contiguous()
    };
    let (start, end) = x
        .layout()
        .contiguous_offsets()
        .expect("made contiguous above");
    let w = width(x.dtype()).expect(CHECKED);
    let input = &x.bytes()[start * w..end * w];
    debug_assert_eq!(plan.input_shape(), &x.layout().shape()[..], "{CHECKED}");
    let (shape, bytes) = pad_host(input, plan, x.dtype(), fill).expect(CHECKED);
    FlexTensor::new(bytes, Layout::contiguous(Shape::from(shape)), x.dtype())
}
