<?php

declare(strict_types=1);

namespace PhpCryptoBench\Abstracted;

use PhpCryptoBench\Tests\Support\EmptyExperiment;

/** A fixture: an experiment base class, named like one but abstract; the registry skips it. */
abstract class AbstractedExperiment extends EmptyExperiment
{
}
