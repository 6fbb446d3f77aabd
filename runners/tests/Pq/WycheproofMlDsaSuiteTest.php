<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pq;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Pq\WycheproofMlDsaSuite;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * Wycheproof's ML-DSA verification vectors through openssl_verify(). Where PHP's OpenSSL has ML-DSA
 * (3.5+), every valid vector is accepted and every invalid one refused, except those with a context
 * string; where it has not (OpenSSL 3.0), no key loads, and the suite says so instead of passing them.
 */
final class WycheproofMlDsaSuiteTest extends TestCase
{
    /** @return iterable<string, array{string, array<string, int>}> outcomes in the Debian 13 stack (OpenSSL 3.5.9) */
    public static function files(): iterable
    {
        yield 'ML-DSA-44' => ['mldsa_44_verify_test.json', ['valid_accepted' => 75, 'invalid_refused' => 94, 'invalid_key_refused' => 4, 'not_run' => 7]];
        yield 'ML-DSA-65' => ['mldsa_65_verify_test.json', ['valid_accepted' => 77, 'invalid_refused' => 122, 'invalid_key_refused' => 4, 'not_run' => 7]];
        yield 'ML-DSA-87' => ['mldsa_87_verify_test.json', ['valid_accepted' => 69, 'invalid_refused' => 161, 'invalid_key_refused' => 4, 'not_run' => 7]];
    }

    /**
     * @dataProvider files
     * @param array<string, int> $expected
     */
    #[DataProvider('files')]
    public function testEveryVectorIsAnsweredRightOrCountedWithWhy(string $file, array $expected): void
    {
        ['report' => $report, 'outcomes' => $outcomes] = (new WycheproofMlDsaSuite(REPOSITORY . '/vectors/wycheproof'))->run($file);
        $total = array_sum($expected);
        self::assertSame($total, $report->passed + $report->skippedCount(), 'every vector of the file is counted once');
        if (MlDsaStack::missing() === null) {
            self::assertSame($expected, $outcomes);
            self::assertSame([WycheproofMlDsaSuite::CONTEXT => 7], $report->skipped, 'two valid and five invalid (too long) contexts');
            return;
        }
        // No ML-DSA key loads: each invalid vector is refused with its key, each valid one cannot run.
        $valid = $expected['valid_accepted'];
        $invalid = $expected['invalid_refused'] + $expected['invalid_key_refused'];
        self::assertSame(['valid_accepted' => 0, 'invalid_refused' => 0, 'invalid_key_refused' => $invalid, 'not_run' => $valid + 7], $outcomes);
        self::assertEquals([WycheproofMlDsaSuite::CONTEXT => 7, WycheproofMlDsaSuite::KEY_NOT_LOADED => $valid], $report->skipped, 'by reason, in any order');
    }

    public function testAValidVectorRefusedFailsVerificationByItsTestCase(): void
    {
        $directory = sys_get_temp_dir() . '/pcb-mldsa-' . bin2hex(random_bytes(4));
        mkdir($directory);
        $document = json_decode((string) file_get_contents(REPOSITORY . '/vectors/wycheproof/mldsa_44_verify_test.json'), true);
        $group = $document['testGroups'][0];
        $test = $group['tests'][0];
        self::assertSame('valid', $test['result']);
        $test['msg'] = bin2hex('another message');
        $group['tests'] = [$test];
        $document['testGroups'] = [$group];
        file_put_contents($directory . '/mldsa_44_verify_test.json', json_encode($document));
        try {
            (new WycheproofMlDsaSuite($directory))->run('mldsa_44_verify_test.json');
            self::assertNotNull(MlDsaStack::missing(), 'where ML-DSA works, a valid vector whose message changed must fail');
        } catch (VerificationFailed $e) {
            self::assertNull(MlDsaStack::missing());
            self::assertSame(sprintf('mldsa_44_verify_test.json tcId %d: expected valid, got invalid (refused)', $test['tcId']), $e->getMessage());
        } finally {
            unlink($directory . '/mldsa_44_verify_test.json');
            rmdir($directory);
        }
    }
}
