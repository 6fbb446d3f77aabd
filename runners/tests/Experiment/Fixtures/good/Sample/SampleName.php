<?php

declare(strict_types=1);

namespace PhpCryptoBench\Sample;

/** A fixture: a helper class beside an experiment outside runners/src, loaded only through the registry's autoloader. */
final class SampleName
{
    public const NAME = 'b_sample';
}
