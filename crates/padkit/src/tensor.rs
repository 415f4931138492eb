//! A dynamically typed tensor (element type tag + bytes or strings) of any ONNX element
//! type, and its pad. It is the exchange type of code that meets element types only at
//! run time: the conformance tool (`padkit-cli`) reads ONNX and `.npy` test data into it,
//! pads it with [`pad_tensor`] as its `core` engine and compares every engine's output in
//! it. The framework adapters work on their own tensors and do not use it.

use crate::packed::{pack, unpack};
use crate::{DType, Element, Layout, PadError, PadSpec, Result, pad, pad_bytes, pad_cloned};

/// The storage of a [`Tensor`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Data {
    /// Little-endian element bytes (packed for the sub-byte types).
    Bytes(Vec<u8>),
    /// One string per element.
    Strings(Vec<String>),
}

/// A tensor of any ONNX element type: dtype, shape and row-major data.
///
/// ```
/// use padkit::{Tensor, DType, PadSpec, pad_tensor};
/// let x = Tensor::from_slice(&[2], &[1i32, 2]).unwrap();
/// let y = pad_tensor(&x, &PadSpec::new(vec![1, 0]), Some(&Tensor::scalar(7i32))).unwrap();
/// assert_eq!(y.shape(), &[3]);
/// assert_eq!(y.to_vec::<i32>().unwrap(), vec![7, 1, 2]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tensor {
    dtype: DType,
    shape: Vec<usize>,
    data: Data,
}

impl Tensor {
    /// A tensor from its parts; the data must match the shape and type exactly.
    ///
    /// # Errors
    ///
    /// - [`PadError::WrongStorage`] when `data` is strings for a numeric type, or bytes for
    ///   [`DType::String`];
    /// - [`PadError::DataLength`] when a string tensor does not hold one string per element
    ///   of `shape`;
    /// - [`PadError::ByteLength`] when the bytes are not exactly the storage of `shape`'s
    ///   elements (packed for the sub-byte types);
    /// - [`PadError::BoolByte`] when a [`DType::Bool`] byte is neither 0 nor 1;
    /// - [`PadError::InputTooLarge`] when the element count or its storage in bytes
    ///   overflows a `usize`.
    ///
    /// ```
    /// use padkit::{Tensor, DType, Data};
    /// // three int4 values take two bytes
    /// assert!(Tensor::new(DType::Int4, vec![3], Data::Bytes(vec![0x21, 0x03])).is_ok());
    /// assert!(Tensor::new(DType::Int4, vec![3], Data::Bytes(vec![0x21])).is_err());
    /// ```
    pub fn new(dtype: DType, shape: Vec<usize>, data: Data) -> Result<Tensor> {
        let elements = checked_len(&shape)?;
        match (&data, dtype.layout()) {
            (Data::Strings(s), Layout::Strings) if s.len() != elements => {
                return Err(PadError::DataLength {
                    what: "tensor data",
                    shape,
                    expected: elements,
                    got: s.len(),
                });
            }
            (Data::Bytes(b), Layout::Bytes(_) | Layout::Packed(_)) => {
                let expected =
                    dtype
                        .storage_bytes(elements)
                        .ok_or_else(|| PadError::InputTooLarge {
                            shape: shape.clone(),
                        })?;
                if b.len() != expected {
                    return Err(PadError::ByteLength {
                        what: "tensor data",
                        shape,
                        expected,
                        got: b.len(),
                    });
                }
                if dtype == DType::Bool
                    && let Some(at) = b.iter().position(|&x| x > 1)
                {
                    return Err(PadError::BoolByte { at, byte: b[at] });
                }
            }
            (Data::Strings(_), Layout::Strings) => {}
            _ => return Err(PadError::WrongStorage { dtype }),
        }
        Ok(Tensor { dtype, shape, data })
    }

    /// A tensor of a fixed-size Rust element type.
    ///
    /// # Errors
    ///
    /// [`PadError::ByteLength`] when `values` does not hold exactly the elements of
    /// `shape`, and [`PadError::InputTooLarge`] when their count overflows a `usize`.
    ///
    /// ```
    /// let t = padkit::Tensor::from_slice(&[2, 1], &[1.5f64, 2.5]).unwrap();
    /// assert_eq!(t.dtype(), padkit::DType::Float64);
    /// ```
    pub fn from_slice<T: Element>(shape: &[usize], values: &[T]) -> Result<Tensor> {
        let bytes = bytemuck::cast_slice::<T, u8>(values).to_vec();
        Tensor::new(T::DTYPE, shape.to_vec(), Data::Bytes(bytes))
    }

    /// A string tensor.
    ///
    /// # Errors
    ///
    /// [`PadError::DataLength`] when `values` does not hold exactly one string per
    /// element of `shape`, and [`PadError::InputTooLarge`] when their count overflows a
    /// `usize`.
    ///
    /// ```
    /// let t = padkit::Tensor::from_strings(&[2], vec!["a".into(), "b".into()]).unwrap();
    /// assert_eq!(t.len(), 2);
    /// ```
    pub fn from_strings(shape: &[usize], values: Vec<String>) -> Result<Tensor> {
        Tensor::new(DType::String, shape.to_vec(), Data::Strings(values))
    }

    /// A rank-0 tensor holding `value`.
    ///
    /// ```
    /// assert_eq!(padkit::Tensor::scalar(3u8).shape(), &[] as &[usize]);
    /// ```
    pub fn scalar<T: Element>(value: T) -> Tensor {
        Tensor {
            dtype: T::DTYPE,
            shape: vec![],
            data: Data::Bytes(bytemuck::bytes_of(&value).to_vec()),
        }
    }

    /// The rank-0 zero of `dtype`: all-zero bits, `false`, or `""`.
    ///
    /// ```
    /// use padkit::{Tensor, DType, Data};
    /// assert_eq!(Tensor::zero(DType::String).data(), &Data::Strings(vec![String::new()]));
    /// ```
    pub fn zero(dtype: DType) -> Tensor {
        let data = match dtype.layout() {
            Layout::Strings => Data::Strings(vec![String::new()]),
            Layout::Bytes(w) => Data::Bytes(vec![0; w]),
            Layout::Packed(_) => Data::Bytes(vec![0]),
        };
        Tensor {
            dtype,
            shape: vec![],
            data,
        }
    }

    /// The element type.
    ///
    /// ```
    /// assert_eq!(padkit::Tensor::scalar(1i8).dtype(), padkit::DType::Int8);
    /// ```
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The shape.
    ///
    /// ```
    /// assert_eq!(padkit::Tensor::from_slice(&[1, 2], &[0u16, 1]).unwrap().shape(), &[1, 2]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The storage.
    ///
    /// ```
    /// use padkit::{Tensor, Data};
    /// assert_eq!(Tensor::scalar(1u8).data(), &Data::Bytes(vec![1]));
    /// ```
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// Number of elements.
    ///
    /// ```
    /// assert_eq!(padkit::Tensor::from_slice(&[2, 3], &[0u8; 6]).unwrap().len(), 6);
    /// ```
    pub fn len(&self) -> usize {
        // `Tensor::new` checked that the count fits.
        checked_len(&self.shape).unwrap_or(usize::MAX)
    }

    /// True when the tensor has no element.
    ///
    /// ```
    /// assert!(padkit::Tensor::from_slice::<u8>(&[0, 3], &[]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements as `T`, which must be the tensor's type.
    ///
    /// # Errors
    ///
    /// [`PadError::WrongType`] when `T` is not the Rust type of the tensor's element type.
    ///
    /// ```
    /// let t = padkit::Tensor::from_slice(&[2], &[1i64, 2]).unwrap();
    /// assert_eq!(t.to_vec::<i64>().unwrap(), vec![1, 2]);
    /// assert!(t.to_vec::<f64>().is_err());
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        match &self.data {
            Data::Bytes(b) if T::DTYPE == self.dtype => Ok(bytemuck::pod_collect_to_vec(b)),
            _ => Err(PadError::WrongType {
                requested: T::DTYPE,
                actual: self.dtype,
            }),
        }
    }

    /// A packed sub-byte tensor (int4, uint4, float4e2m1, int2, uint2) from one code per
    /// element; codes are masked to the type's bits.
    ///
    /// # Errors
    ///
    /// - [`PadError::WrongStorage`] when `dtype` is not a packed sub-byte type;
    /// - [`PadError::ByteLength`] when `codes` packs into more or fewer bytes than
    ///   `shape`'s elements take;
    /// - [`PadError::InputTooLarge`] when the element count of `shape` overflows a `usize`.
    ///
    /// ```
    /// use padkit::{Tensor, DType, Data};
    /// let t = Tensor::from_codes(DType::Int4, &[3], &[1, 2, 3]).unwrap();
    /// assert_eq!(t.data(), &Data::Bytes(vec![0x21, 0x03]));
    /// assert!(Tensor::from_codes(DType::Float32, &[1], &[0]).is_err());
    /// ```
    pub fn from_codes(dtype: DType, shape: &[usize], codes: &[u8]) -> Result<Tensor> {
        let Layout::Packed(bits) = dtype.layout() else {
            return Err(PadError::WrongStorage { dtype });
        };
        Tensor::new(dtype, shape.to_vec(), Data::Bytes(pack(codes, bits)))
    }

    /// One code per element (`0..2^bits`) of a packed sub-byte tensor, `None` for the other
    /// layouts.
    ///
    /// ```
    /// use padkit::{Tensor, DType, Data};
    /// let t = Tensor::new(DType::UInt4, vec![3], Data::Bytes(vec![0x21, 0x03])).unwrap();
    /// assert_eq!(t.unpacked_codes(), Some(vec![1, 2, 3]));
    /// ```
    pub fn unpacked_codes(&self) -> Option<Vec<u8>> {
        match (&self.data, self.dtype.layout()) {
            (Data::Bytes(b), Layout::Packed(bits)) => Some(unpack(b, bits, self.len())),
            _ => None,
        }
    }
}

/// The number of elements of `shape`: 0 when an extent is 0, however large the others.
fn checked_len(shape: &[usize]) -> Result<usize> {
    if shape.contains(&0) {
        return Ok(0);
    }
    shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| PadError::InputTooLarge {
            shape: shape.to_vec(),
        })
}

/// Pads a tensor of any ONNX element type. `value` (constant mode) must be a one-element
/// tensor of the same type; `None` means the type's zero.
///
/// Every fixed-size type runs the one generic kernel on its byte width; packed sub-byte
/// types are unpacked to one code per byte, padded and repacked; strings are cloned.
///
/// # Errors
///
/// - [`PadError::ValueType`] when `value` has another element type than `input`, and
///   [`PadError::ValueNotScalar`] when it does not hold exactly one element;
/// - the errors of [`Plan::new`](crate::Plan::new) when `spec` does not fit the input's
///   shape or the output is too large;
/// - [`PadError::Alloc`] when the output cannot be allocated.
///
/// ```
/// use padkit::{Tensor, DType, Data, PadSpec, PadMode, pad_tensor};
/// let x = Tensor::new(DType::Int4, vec![3], Data::Bytes(vec![0x21, 0x03])).unwrap();
/// let spec = PadSpec::new(vec![1, 1]).with_mode(PadMode::Edge);
/// let y = pad_tensor(&x, &spec, None).unwrap();
/// assert_eq!(y.unpacked_codes(), Some(vec![1, 1, 2, 3, 3]));
/// ```
pub fn pad_tensor(input: &Tensor, spec: &PadSpec, value: Option<&Tensor>) -> Result<Tensor> {
    let zero;
    let value = match value {
        Some(v) => v,
        None => {
            zero = Tensor::zero(input.dtype);
            &zero
        }
    };
    if value.dtype != input.dtype {
        return Err(PadError::ValueType {
            expected: input.dtype,
            got: value.dtype,
        });
    }
    if value.len() != 1 {
        return Err(PadError::ValueNotScalar {
            elements: value.len(),
        });
    }
    let shape = &input.shape;
    let (out_shape, data) = match (&input.data, &value.data, input.dtype.layout()) {
        (Data::Strings(x), Data::Strings(v), _) => {
            let (s, out) = pad_cloned(x, shape, spec, v[0].clone())?;
            (s, Data::Strings(out))
        }
        (Data::Bytes(x), Data::Bytes(v), Layout::Packed(bits)) => {
            let codes = unpack(x, bits, input.len());
            let fill = unpack(v, bits, 1)[0];
            let (s, out) = pad(&codes, shape, spec, fill)?;
            (s, Data::Bytes(pack(&out, bits)))
        }
        (Data::Bytes(x), Data::Bytes(v), Layout::Bytes(w)) => {
            let (s, out) = pad_bytes(x, w, shape, spec, v)?;
            (s, Data::Bytes(out))
        }
        _ => unreachable!("Tensor::new keeps data and layout consistent"),
    };
    Tensor::new(input.dtype, out_shape, data)
}
