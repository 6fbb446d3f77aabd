<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Cli;

use PhpCryptoBench\Cli\RunOptions;
use PhpCryptoBench\Exception\UsageError;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class RunOptionsTest extends TestCase
{
    private const KNOWN = ['aead', 'jwt'];

    public function testDefaultsAreQuickEverythingAndTheRealClock(): void
    {
        $options = RunOptions::parse([], self::KNOWN, false);
        self::assertSame('quick', $options->profile);
        self::assertNull($options->only);
        self::assertNull($options->out);
        self::assertFalse($options->resume);
        self::assertFalse($options->fakeClock);
        self::assertNull($options->budgetNs, 'the profile\'s budget');
        self::assertNull($options->endsBy, 'no time to end by');
    }

    public function testNoNativeLeavesOpensslSpeedOutAndEveryRunTakesItByDefault(): void
    {
        self::assertTrue(RunOptions::parse([], self::KNOWN, false)->native);
        self::assertFalse(RunOptions::parse(['--no-native'], self::KNOWN, false)->native);
        self::assertFalse(RunOptions::parse(['--profile', 'quick', '--no-native', '--fake-clock'], self::KNOWN, false)->native);
    }

    public function testEndsByIsATimeInWholeSecondsSinceTheEpoch(): void
    {
        self::assertSame(1_795_000_000, RunOptions::parse(['--ends-by', '1795000000'], self::KNOWN, false)->endsBy);
        self::assertSame(0, RunOptions::parse(['--ends-by=0'], self::KNOWN, false)->endsBy, 'long past: nothing left');
        self::assertNull(RunOptions::parse(['--ends-by=0'], self::KNOWN, false)->budgetNs, 'the profile\'s budget, cut later against the clock');
    }

    public function testEveryOptionInBothSpellings(): void
    {
        $options = RunOptions::parse(['--profile=full', '--only', 'jwt,aead,jwt', '--out', '/tmp/x', '--resume', '--fake-clock', '--budget-seconds', '240'], self::KNOWN, false);
        self::assertSame('full', $options->profile);
        self::assertSame(['jwt', 'aead'], $options->only);
        self::assertSame('/tmp/x', $options->out);
        self::assertTrue($options->resume);
        self::assertTrue($options->fakeClock);
        self::assertSame(240_000_000_000, $options->budgetNs);
        self::assertSame(54_321_000_000, RunOptions::parse(['--budget-seconds=54.321'], self::KNOWN, false)->budgetNs, 'a child\'s share, in milliseconds');
        self::assertSame(0, RunOptions::parse(['--budget-seconds', '0'], self::KNOWN, false)->budgetNs, 'nothing left: the minimum samples only');
    }

    public function testTheEnvironmentCanTurnOnTheFakeClock(): void
    {
        self::assertTrue(RunOptions::parse([], self::KNOWN, true)->fakeClock);
    }

    /** @return iterable<string, array{list<string>, string}> */
    public static function badArguments(): iterable
    {
        yield 'unknown option' => [['--fast'], 'unknown option "--fast"; see --help'];
        yield 'unknown experiment' => [['--only', 'aead,rot13'], 'unknown experiment "rot13"; expected one of: aead, jwt'];
        yield 'missing value' => [['--out'], 'option --out expects a value, none given'];
        yield 'option as value' => [['--profile', '--resume'], 'option --profile expects a value, none given'];
        yield 'bad profile' => [['--profile', 'slow'], 'unknown profile "slow"; expected quick or full'];
        yield 'resume without out' => [['--resume'], '--resume needs --out DIR naming the run to finish'];
        yield 'budget not a number' => [['--budget-seconds', '3m'], '--budget-seconds expects a number of seconds, 0 or more; got "3m"'];
        yield 'negative budget' => [['--budget-seconds=-5'], '--budget-seconds expects a number of seconds, 0 or more; got "-5"'];
        yield 'ends-by as a date' => [['--ends-by', '2026-11-29T10:00:00'], '--ends-by expects a time as whole seconds since the epoch (date +%s); got "2026-11-29T10:00:00"'];
        yield 'ends-by with a fraction' => [['--ends-by=1795000000.5'], '--ends-by expects a time as whole seconds since the epoch (date +%s); got "1795000000.5"'];
        yield 'ends-by on a resumed run' => [['--resume', '--out', '/tmp/x', '--ends-by', '1795000000'], '--ends-by cannot be given with --resume: a resumed run keeps its budget (--budget-seconds), less what its recorded experiments took'];
    }

    /**
     * @dataProvider badArguments
     * @param list<string> $arguments
     */
    #[DataProvider('badArguments')]
    public function testBadArgumentsAreUsageErrorsThatSayWhatWasExpected(array $arguments, string $message): void
    {
        $this->expectException(UsageError::class);
        $this->expectExceptionMessage($message);
        RunOptions::parse($arguments, self::KNOWN, false);
    }
}
