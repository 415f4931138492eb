//! Second-order gradients: the backward of padkit's adjoint is the pad again. candle
//! detaches gradients unless `CANDLE_GRAD_DO_NOT_DETACH` is set, which it reads once per
//! thread: this binary's one test sets it, then works on a thread of its own.

use candle_core::{Device, Tensor, Var};
use padkit::{PadMode, PadSpec};
use padkit_candle::pad_with;

#[test]
fn second_order_gradients_flow_through_the_adjoint() {
    // SAFETY: this binary runs one test, and no other thread reads the environment.
    unsafe { std::env::set_var("CANDLE_GRAD_DO_NOT_DETACH", "1") };
    std::thread::spawn(second_order).join().unwrap();
}

fn second_order() {
    // y = pad(x); g = d/dx sum(w · y) = adjoint(w); d/dw sum(g · v) = pad(v) with zero
    // fill: the adjoint's backward is the pad again.
    let spec = PadSpec::new(vec![2, 1]).with_mode(PadMode::Reflect);
    let w = Var::new(&[1f64, 2.0, 3.0, 4.0, 5.0, 6.0], &Device::Cpu).unwrap();
    let x = Var::new(&[0f64, 0.0, 0.0], &Device::Cpu).unwrap();
    let y = pad_with(x.as_tensor(), &spec, 0.0).unwrap();
    let g = (&y * w.as_tensor())
        .unwrap()
        .sum_all()
        .unwrap()
        .backward()
        .unwrap();
    let gx = g.get(&x).unwrap();
    // reflect [a,b,c] by (2,1) reads c b a b c b: a ← w3, b ← w2+w4+w6, c ← w1+w5
    assert_eq!(gx.to_vec1::<f64>().unwrap(), [3.0, 12.0, 6.0]);
    let v = Tensor::new(&[1f64, 10.0, 100.0], &Device::Cpu).unwrap();
    let gg = (gx * v).unwrap().sum_all().unwrap().backward().unwrap();
    let gw = gg.get(&w).expect("the adjoint is tracked");
    assert_eq!(
        gw.to_vec1::<f64>().unwrap(),
        [100.0, 10.0, 1.0, 10.0, 100.0, 10.0]
    );
}
