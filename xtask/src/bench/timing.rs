//! Timing jobs: shuffled rounds, each job a ratio to job 0 of the same round.

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::Job;

pub(super) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times every job `rounds` times, in an order shuffled each round from `seed`; returns
/// each job's median time and median ratio to job 0 (the floor, or stock tract) of the
/// same round.
pub(super) fn measure(
    jobs: &mut [(String, Job)],
    reps: usize,
    rounds: usize,
    seed: u64,
) -> Vec<(f64, f64)> {
    let time = |f: &mut Job| {
        f(); // warm
        let t = Instant::now();
        (0..reps).for_each(|_| f());
        t.elapsed().as_secs_f64() / reps as f64
    };
    // A job pays for what the job before it left in the caches, so no implementation may
    // always follow the same one, as it would under a rotation.
    let mut samples = vec![vec![]; jobs.len()];
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    for _ in 0..rounds {
        order.shuffle(&mut rng);
        for &i in &order {
            samples[i].push(time(&mut jobs[i].1));
        }
    }
    let floors = samples[0].clone();
    samples
        .into_iter()
        .map(|s| {
            let ratios = s.iter().zip(&floors).map(|(t, f)| t / f).collect();
            (median(s), median(ratios))
        })
        .collect()
}
