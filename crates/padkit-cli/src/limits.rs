//! How large an output the CLI accepts: by default what the machine can still give.

/// The default output limit: the memory available now (`MemAvailable` on Linux), or no
/// limit beyond the address space where that is unknown.
pub fn default_max_output_bytes() -> u64 {
    mem_available().unwrap_or(isize::MAX as u64)
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
fn mem_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_limit_is_positive() {
        assert!(crate::limits::default_max_output_bytes() > 0);
    }
}
