<?php

declare(strict_types=1);

namespace PhpCryptoBench\Helper;

/** A fixture: named like an experiment, but not one (it implements nothing); the registry skips it. */
final class HelperExperiment
{
}
