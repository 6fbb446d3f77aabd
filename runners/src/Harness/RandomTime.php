<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * A case that may say its one operation takes a random time by design, as ML-DSA's signing does: it
 * repeats its loop until a candidate signature passes (FIPS 204's rejection sampling), so one signature
 * takes one, two or more rounds. Such a case is measured by its mean cost, as `openssl speed` measures
 * it: each sample is Sampler::RANDOM_TIME_OPERATIONS operations, never calibrated to another count. The
 * median of samples of k operations is the median of their means, which moves from the median operation
 * toward the mean as k grows, and calibration picked k from a warm-up's random draw: ML-DSA-65's signing
 * measured 688-755 µs at one signature a sample and 921-938 µs at two, in one run (20261130T2045Z,
 * Debian 13's OpenSSL 3.5), so payload lengths that cost the same looked 30 % apart. Of 800 single
 * ML-DSA-65 signatures (mean 978 µs, median 769 µs), the median of 200 means of 16 was 963 µs, within
 * 1.5 % of the mean, and varied by 1.7 % between resamplings; of means of 1, 2 and 8: 730, 857, 948 µs.
 */
interface RandomTime
{
    /** Whether one operation of this case takes a random time by design. */
    public function takesRandomTime(): bool;
}
