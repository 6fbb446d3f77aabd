<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

/**
 * An experiment whose least work is projected from real work of its own (Argon2's hashes: HashCost)
 * and whose sampling past it reads what is left of its share as it goes (CellShares): a run that names
 * no order measures it after the others (ExperimentRegistry::select). The others' least work is
 * projected from one operation of their slow cases, without their cases' set-up and per-sample
 * checks, which a slower host lengthens too; measured second, Argon2 spent the surplus their least
 * work then took from the run's end (make report's experiments took 3:49 of their 3:15 on a host
 * 2.3 times slower than a family-25 model-17 one, emulated). Measured last, it takes what they left,
 * and no less than its own least.
 */
interface TakesWhatIsLeft extends Experiment
{
}
