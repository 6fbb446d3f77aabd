<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\BareEncryptLoop;
use PhpCryptoBench\Aead\HarnessOverhead;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PHPUnit\Framework\TestCase;
use ReflectionProperty;

final class HarnessOverheadTest extends TestCase
{
    public function testTheBareLoopEncryptsUnderAFreshNonceAndItsLastMessageOpens(): void
    {
        $loop = new BareEncryptLoop('aes-256-gcm', 16384);
        $loop->run(3);
        $loop->verifyLastRun();
        self::assertSame(['algorithm' => 'aes-256-gcm', 'payload_bytes' => 16384, 'loop' => 'bare'], $loop->key());
        self::assertSame(16384, $loop->bytesPerIteration());
        $nonce = new ReflectionProperty(BareEncryptLoop::class, 'lastNonce');
        $first = $nonce->getValue($loop);
        $loop->run(1);
        self::assertNotSame($first, $nonce->getValue($loop));
    }

    public function testABareLoopWhoseOutputIsWrongFailsVerification(): void
    {
        $loop = new BareEncryptLoop('aes-256-gcm', 64);
        $loop->run(1);
        (new ReflectionProperty(BareEncryptLoop::class, 'lastTag'))->setValue($loop, str_repeat("\0", 16));
        $this->expectException(VerificationFailed::class);
        $loop->verifyLastRun();
    }

    public function testTheHarnessAndTheBareLoopAreSampledInTheSameRoundsAtEachPayload(): void
    {
        $table = new CsvTable(['algorithm', 'payload_bytes', 'loop', 'sample', 'iterations', 'elapsed_ns']);
        $sampler = new Sampler(new FakeTimer(), Profile::named('quick')->forFakeClock());
        HarnessOverhead::measureInto($table, $sampler);
        $rounds = [];
        foreach ($table->records() as $row) {
            $rounds[$row['payload_bytes']][$row['loop']][] = $row['sample'];
        }
        self::assertSame(['16', '16384'], array_map('strval', array_keys($rounds)));
        foreach ($rounds as $loops) {
            self::assertSame($loops['harness'], $loops['bare']);
        }
        self::assertEquals((object) [HarnessOverhead::CSV => ['algorithm', 'payload_bytes']], $sampler->tally()->toManifest()['interleaved_by']);
    }
}
