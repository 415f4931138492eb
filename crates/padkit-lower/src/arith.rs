//! The arithmetic of the index maps computed at run time, typed: an [`Int64`] is an int64
//! graph value (a scalar or a list), a [`Double`] a double one, a [`Cond`] a bool one and a
//! [`Flag`] an int64 count, above 0 where the original Pad refuses. Each operation emits
//! the ONNX op that computes it, so that a map or a guard reads as the sums and
//! comparisons it is; [`Emitter::guard`] turns the flags into the one run-time check.

use std::ops::Deref;

use padkit::{DType, Tensor};

use crate::emit::Emitter;

/// A graph value of one kind, by its name in the graph.
pub(crate) trait Value: Deref<Target = str> {
    /// The value named `name`, which an op of this kind computes.
    fn named(name: String) -> Self;
}

/// A graph value that `Add`, `Sub`, `Mul`, `Div` and `Less` take.
pub(crate) trait Number: Value {}

macro_rules! value {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Clone)]
        pub(crate) struct $name(String);

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl Value for $name {
            fn named(name: String) -> Self {
                $name(name)
            }
        }
    )*};
}

value! {
    /// An int64 graph value, a scalar or a list.
    Int64,
    /// A double graph value (the output's element count, which cannot overflow in it).
    Double,
    /// A bool graph value.
    Cond,
    /// An int64 graph value above 0 where the original Pad refuses (a 0 or 1 flag, or a
    /// count of offending entries).
    Flag,
}

impl Number for Int64 {}
impl Number for Double {}

impl Flag {
    /// The flag that is never raised: the int64 0 `zero`.
    pub(crate) fn off(zero: &Int64) -> Flag {
        Flag(zero.0.clone())
    }
}

impl Emitter<'_> {
    /// The value `op` computes from `inputs`, of kind `V`.
    pub(crate) fn value<V: Value>(&mut self, op: &str, inputs: &[&str]) -> V {
        V::named(self.op(op, inputs))
    }

    /// An int64 scalar constant.
    pub(crate) fn int64(&mut self, v: i64) -> Int64 {
        Int64(self.constant(&Tensor::from_slice(&[], &[v]).expect("an int64 scalar")))
    }

    /// A one-element 1-D int64 constant.
    pub(crate) fn int64s(&mut self, v: i64) -> Int64 {
        Int64(self.constant(&Tensor::from_slice(&[1], &[v]).expect("one int64")))
    }

    /// A 1-D int64 constant of `values`.
    pub(crate) fn int64_list(&mut self, values: &[i64]) -> Int64 {
        let t = Tensor::from_slice(&[values.len()], values).expect("int64 values");
        Int64(self.constant(&t))
    }

    /// A double scalar constant.
    pub(crate) fn double(&mut self, v: f64) -> Double {
        Double(self.constant(&Tensor::from_slice(&[], &[v]).expect("a double")))
    }

    /// `a + b`.
    pub(crate) fn add<V: Number>(&mut self, a: &V, b: &V) -> V {
        self.value("Add", &[a, b])
    }

    /// `a - b`.
    pub(crate) fn sub<V: Number>(&mut self, a: &V, b: &V) -> V {
        self.value("Sub", &[a, b])
    }

    /// `a * b`.
    pub(crate) fn mul<V: Number>(&mut self, a: &V, b: &V) -> V {
        self.value("Mul", &[a, b])
    }

    /// `a / b`, truncated: the floor where both are non-negative, as the maps use it.
    pub(crate) fn div(&mut self, a: &Int64, b: &Int64) -> Int64 {
        self.value("Div", &[a, b])
    }

    /// `|a|`.
    pub(crate) fn abs(&mut self, a: &Int64) -> Int64 {
        self.value("Abs", &[a])
    }

    /// `a < b`.
    pub(crate) fn less<V: Number>(&mut self, a: &V, b: &V) -> Cond {
        self.value("Less", &[a, b])
    }

    /// `a == b`.
    pub(crate) fn equal<V: Value>(&mut self, a: &V, b: &V) -> Cond {
        self.value("Equal", &[a, b])
    }

    /// `if cond { a } else { b }`, entry by entry.
    pub(crate) fn select<V: Value>(&mut self, cond: &Cond, a: &V, b: &V) -> V {
        self.value("Where", &[cond, a, b])
    }

    /// The sum of the entries of `v`, a scalar.
    pub(crate) fn sum<V: Value>(&mut self, v: &V) -> Int64 {
        Int64(self.op_with("ReduceSum", &[v], &[("keepdims", 0)]))
    }

    /// The largest entry of `v`, a scalar.
    pub(crate) fn max(&mut self, v: &Int64) -> Int64 {
        Int64(self.op_with("ReduceMax", &[v], &[("keepdims", 0)]))
    }

    /// `start, start + step, …` below `limit`.
    pub(crate) fn range(&mut self, start: &Int64, limit: &Int64, step: &Int64) -> Int64 {
        self.value("Range", &[start, limit, step])
    }

    /// `v` as a double.
    pub(crate) fn as_double(&mut self, v: &Int64) -> Double {
        Double(self.op_with("Cast", &[v], &[("to", DType::Float64.onnx_code() as i64)]))
    }

    /// `max(0, v)` (`zero` an int64 0).
    pub(crate) fn relu(&mut self, v: &Int64, zero: &Int64) -> Int64 {
        let negative = self.less(v, zero);
        self.select(&negative, zero, v)
    }

    /// The flag of `cond`, 1 where it holds: ONNX Runtime's `Where` takes no bool values,
    /// so conditions are combined as int64.
    pub(crate) fn flag(&mut self, cond: &Cond) -> Flag {
        let (one, zero) = (self.int64(1), self.int64(0));
        self.value("Where", &[cond, &one, &zero])
    }

    /// How many entries of the bool tensor `cond` are `bad` (0 when none is).
    pub(crate) fn count(&mut self, cond: &Cond, bad: bool) -> Flag {
        let flags = self.flag(cond);
        let flags = match bad {
            true => flags,
            false => {
                let one = self.int64(1);
                self.value("Sub", &[&one, &flags])
            }
        };
        Flag(self.sum(&flags).0)
    }

    /// The flag of `a + b` having wrapped into `sum`: terms of one sign, a sum of the other.
    pub(crate) fn wraps(&mut self, a: &Int64, b: &Int64, sum: &Int64) -> Flag {
        let zero = self.int64(0);
        let sign = |e: &mut Self, v: &Int64| {
            let negative = e.less(v, &zero);
            e.flag(&negative)
        };
        let (a, b, sum) = (sign(self, a), sign(self, b), sign(self, sum));
        let alike = self.equal(&a, &b);
        let kept = self.equal(&a, &sum);
        let (one, none) = (self.int64(1), self.int64(0));
        let flipped = self.select(&kept, &none, &one);
        Flag(self.select(&alike, &flipped, &none).0)
    }

    /// 0, or a run-time error where any of `flags` is raised: a `Gather` from a
    /// one-element tensor at 1 where the flags' sum is above 0, out of range. ONNX Runtime
    /// and candle-onnx refuse it with an error; stock tract 0.23.9 panics on it (its
    /// Gather indexes without a check), which padkit's CLI reports as tract's error. (A
    /// `Reshape` to a computed shape would be refused everywhere, but tract takes no shape
    /// computed at run time.)
    pub(crate) fn guard(&mut self, flags: Vec<Flag>) -> Int64 {
        let (zero, one) = (self.int64(0), self.int64(1));
        let Some((first, rest)) = flags.split_first() else {
            return zero;
        };
        let mut sum = Int64(first.0.clone());
        for f in rest {
            sum = self.value("Add", &[&sum, f]);
        }
        let raised = self.less(&zero, &sum);
        let at = self.select(&raised, &one, &zero);
        let nothing = self.int64_list(&[0]);
        self.value("Gather", &[&nothing, &at])
    }
}
