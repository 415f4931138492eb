//! Models whose tensors are stored as ONNX external data: read from beside the model, and
//! refused with a clear error when the data would come from outside its directory, from
//! past the end of its file, or in another size than the tensor needs.

use std::path::{Path, PathBuf};

use padkit_onnx::pb::StringStringEntryProto;
use padkit_onnx_tools::data::read_model;
use padkit_onnx_tools::model::{Feed, PadModel};
use prost::Message;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("padkit-onnx-ext-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Pad model in `dir` whose pads initializer (`[1, 0, 0, 2]` as int64) is stored in
/// `location` at `offset`, given as these external_data entries; `pads.bin` in `dir`
/// holds 3 junk bytes and then the pads.
fn model_with_external_pads(dir: &Path, entries: &[(&str, &str)]) -> PathBuf {
    let x = padkit::Tensor::from_slice(&[2, 3], &[1.0f32; 6]).unwrap();
    let mut proto = PadModel::new(13, "constant", x, vec![1, 0, 0, 2], Feed::Initializer).proto();
    let pads = &mut proto.graph.as_mut().unwrap().initializer[0];
    let mut bytes = vec![7u8; 3];
    bytes.extend_from_slice(&pads.raw_data);
    std::fs::write(dir.join("pads.bin"), bytes).unwrap();
    pads.raw_data.clear();
    pads.data_location = 1;
    pads.external_data = entries
        .iter()
        .map(|(k, v)| StringStringEntryProto {
            key: (*k).into(),
            value: (*v).into(),
        })
        .collect();
    let path = dir.join("model.onnx");
    std::fs::write(&path, proto.encode_to_vec()).unwrap();
    path
}

fn error(dir: &Path, entries: &[(&str, &str)]) -> String {
    let path = model_with_external_pads(dir, entries);
    format!("{:#}", read_model(&path).unwrap_err())
}

#[test]
fn external_data_is_read_from_beside_the_model() {
    let dir = scratch("ok");
    let path = model_with_external_pads(
        &dir,
        &[("location", "pads.bin"), ("offset", "3"), ("length", "32")],
    );
    let model = read_model(&path).unwrap();
    let pads = &model.graph.unwrap().initializer[0];
    let values: Vec<i64> = pads
        .raw_data
        .chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(values, [1, 0, 0, 2]);
    assert!(pads.external_data.is_empty());
    // Without a length, the rest of the file from the offset.
    let path = model_with_external_pads(&dir, &[("location", "./pads.bin"), ("offset", "3")]);
    assert!(read_model(&path).is_ok());
}

#[test]
fn data_from_outside_the_models_directory_is_refused() {
    let dir = scratch("escape");
    let e = error(&dir, &[("location", "../pads.bin")]);
    assert!(
        e.contains(
            "tensor \"pads\" (external data): location \"../pads.bin\" leaves the model's directory"
        ),
        "{e}"
    );
    let abs = dir.join("pads.bin");
    let e = error(&dir, &[("location", abs.to_str().unwrap())]);
    assert!(e.contains("is an absolute path"), "{e}");
    #[cfg(unix)]
    {
        let outside = scratch("outside");
        std::fs::write(outside.join("secret.bin"), [0u8; 32]).unwrap();
        std::os::unix::fs::symlink(outside.join("secret.bin"), dir.join("link.bin")).unwrap();
        let e = error(&dir, &[("location", "link.bin")]);
        assert!(
            e.contains("is a symbolic link leaving the model's directory"),
            "{e}"
        );
    }
    let e = error(&dir, &[("offset", "3")]);
    assert!(e.contains("has no 'location'"), "{e}");
    let e = error(&dir, &[("location", "missing.bin")]);
    assert!(e.contains("cannot open \"missing.bin\""), "{e}");
}

#[test]
fn ranges_past_the_file_or_of_another_size_are_refused() {
    let dir = scratch("range");
    let e = error(
        &dir,
        &[("location", "pads.bin"), ("offset", "8"), ("length", "32")],
    );
    assert!(
        e.contains("bytes 8..40 of \"pads.bin\" are past its end (35 bytes)"),
        "{e}"
    );
    let e = error(
        &dir,
        &[
            ("location", "pads.bin"),
            ("offset", "18446744073709551615"),
            ("length", "2"),
        ],
    );
    assert!(e.contains("offset + length overflows"), "{e}");
    let e = error(&dir, &[("location", "pads.bin"), ("length", "16")]);
    assert!(
        e.contains("gives 16 bytes; 4 elements of int64 need 32"),
        "{e}"
    );
    let e = error(&dir, &[("location", "pads.bin"), ("offset", "-1")]);
    assert!(e.contains("'offset' is \"-1\", not a byte count"), "{e}");
}
