<?php

declare(strict_types=1);

namespace PhpCryptoBench\Wrong;

/** A fixture: the file promises PhpCryptoBench\Wrong\WrongExperiment but declares another class. */
final class Misnamed
{
}
