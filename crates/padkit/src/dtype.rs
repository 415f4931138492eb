//! Every ONNX element type, with its code and storage layout.

use std::fmt;

use crate::PadError;

/// How a type's elements are stored.
///
/// ```
/// use padkit::dtype::Layout;
/// use padkit::DType;
/// assert_eq!(DType::Float16.layout(), Layout::Bytes(2));
/// assert_eq!(DType::Int4.layout(), Layout::Packed(4));
/// assert_eq!(DType::String.layout(), Layout::Strings);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Fixed-size elements of this many bytes.
    Bytes(usize),
    /// Sub-byte elements of this many bits, packed the ONNX way (first element in the
    /// lowest bits).
    Packed(u32),
    /// Variable-length strings.
    Strings,
}

macro_rules! dtypes {
    ($($variant:ident = $code:literal, $name:literal, $layout:expr;)*) => {
        /// An ONNX element type (`TensorProto.DataType`).
        ///
        /// ```
        /// use padkit::DType;
        /// assert_eq!(DType::from_onnx(16).unwrap(), DType::BFloat16);
        /// assert_eq!(DType::BFloat16.onnx_code(), 16);
        /// assert_eq!(DType::Float8E4M3FN.to_string(), "float8e4m3fn");
        /// assert!(DType::from_onnx(99).is_err());
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum DType {
            $(
                #[doc = concat!("ONNX `", $name, "` (code ", stringify!($code), ").")]
                $variant,
            )*
        }

        impl DType {
            /// Every type padkit knows, in ONNX code order.
            pub const ALL: &'static [DType] = &[$(DType::$variant),*];

            /// The `TensorProto.DataType` code.
            pub fn onnx_code(self) -> i32 {
                match self { $(DType::$variant => $code,)* }
            }

            /// The lower-case ONNX name.
            pub fn name(self) -> &'static str {
                match self { $(DType::$variant => $name,)* }
            }

            /// How elements are stored.
            pub fn layout(self) -> Layout {
                match self { $(DType::$variant => $layout,)* }
            }

            /// The type of a `TensorProto.DataType` code.
            ///
            /// # Errors
            ///
            /// [`PadError::UnknownDType`] when `code` names no type padkit knows.
            pub fn from_onnx(code: i32) -> Result<DType, PadError> {
                match code {
                    $($code => Ok(DType::$variant),)*
                    other => Err(PadError::UnknownDType(other)),
                }
            }
        }
    };
}

dtypes! {
    Float32 = 1, "float", Layout::Bytes(4);
    UInt8 = 2, "uint8", Layout::Bytes(1);
    Int8 = 3, "int8", Layout::Bytes(1);
    UInt16 = 4, "uint16", Layout::Bytes(2);
    Int16 = 5, "int16", Layout::Bytes(2);
    Int32 = 6, "int32", Layout::Bytes(4);
    Int64 = 7, "int64", Layout::Bytes(8);
    String = 8, "string", Layout::Strings;
    Bool = 9, "bool", Layout::Bytes(1);
    Float16 = 10, "float16", Layout::Bytes(2);
    Float64 = 11, "double", Layout::Bytes(8);
    UInt32 = 12, "uint32", Layout::Bytes(4);
    UInt64 = 13, "uint64", Layout::Bytes(8);
    Complex64 = 14, "complex64", Layout::Bytes(8);
    Complex128 = 15, "complex128", Layout::Bytes(16);
    BFloat16 = 16, "bfloat16", Layout::Bytes(2);
    Float8E4M3FN = 17, "float8e4m3fn", Layout::Bytes(1);
    Float8E4M3FNUZ = 18, "float8e4m3fnuz", Layout::Bytes(1);
    Float8E5M2 = 19, "float8e5m2", Layout::Bytes(1);
    Float8E5M2FNUZ = 20, "float8e5m2fnuz", Layout::Bytes(1);
    UInt4 = 21, "uint4", Layout::Packed(4);
    Int4 = 22, "int4", Layout::Packed(4);
    Float4E2M1 = 23, "float4e2m1", Layout::Packed(4);
    Float8E8M0 = 24, "float8e8m0", Layout::Bytes(1);
    UInt2 = 25, "uint2", Layout::Packed(2);
    Int2 = 26, "int2", Layout::Packed(2);
}

impl DType {
    /// Bits an element takes in storage: 8 per byte of a fixed-size element, the packed
    /// width of a sub-byte one, a `String` each for strings.
    ///
    /// ```
    /// use padkit::DType;
    /// assert_eq!(DType::Float32.element_bits(), 32);
    /// assert_eq!(DType::Int4.element_bits(), 4);
    /// ```
    pub fn element_bits(self) -> u64 {
        match self.layout() {
            Layout::Bytes(w) => 8 * w as u64,
            Layout::Packed(bits) => u64::from(bits),
            Layout::Strings => 8 * size_of::<std::string::String>() as u64,
        }
    }

    /// Bytes needed to store `n` elements (strings count one `String` each).
    ///
    /// ```
    /// use padkit::DType;
    /// assert_eq!(DType::Int4.storage_bytes(3), Some(2));
    /// assert_eq!(DType::Float64.storage_bytes(3), Some(24));
    /// ```
    pub fn storage_bytes(self, n: usize) -> Option<usize> {
        match self.layout() {
            Layout::Bytes(w) => n.checked_mul(w),
            Layout::Packed(bits) => Some(n.checked_mul(bits as usize)?.div_ceil(8)),
            Layout::Strings => n.checked_mul(size_of::<std::string::String>()),
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Rust type that stores one ONNX element type.
///
/// ```
/// use padkit::{DType, Element};
/// assert_eq!(<padkit::half::bf16 as Element>::DTYPE, DType::BFloat16);
/// ```
pub trait Element: bytemuck::Pod + Send + Sync {
    /// The ONNX type.
    const DTYPE: DType;
}

macro_rules! elements {
    ($($t:ty => $d:ident),* $(,)?) => { $(impl Element for $t { const DTYPE: DType = DType::$d; })* };
}

elements! {
    f32 => Float32, f64 => Float64, half::f16 => Float16, half::bf16 => BFloat16,
    i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64,
    u8 => UInt8, u16 => UInt16, u32 => UInt32, u64 => UInt64,
    num_complex::Complex<f32> => Complex64, num_complex::Complex<f64> => Complex128,
}
