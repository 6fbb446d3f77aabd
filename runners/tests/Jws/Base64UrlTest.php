<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Jws\Base64Url;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * base64url as RFC 7515 section 2 has it: the URL-safe alphabet, no padding, no white space, and
 * (RFC 4648 section 3.5) zero bits after the last byte, so that a value has one encoding only.
 */
final class Base64UrlTest extends TestCase
{
    private const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

    /** The definition, checked the slow way: the alphabet, a possible length, and re-encoding gives the text back. */
    private static function canonical(string $text): bool
    {
        return preg_match('/^[A-Za-z0-9_-]*$/D', $text) === 1 && strlen($text) % 4 !== 1
            && rtrim(strtr(base64_encode((string) base64_decode(strtr($text, '-_', '+/'))), '+/', '-_'), '=') === $text;
    }

    private static function decodes(string $text): bool
    {
        try {
            $bytes = Base64Url::decode($text);
        } catch (MalformedToken) {
            return false;
        }
        self::assertSame($text, Base64Url::encode($bytes), 'what decodes encodes back to itself');
        return true;
    }

    /**
     * Every byte value, inserted at every place of texts of each length modulo 4 and put in place of
     * each character: the decoder accepts exactly the canonical encodings. Lax decoders differ here
     * (base64_decode() skips white space and takes '=' and '+' and '/' even in strict mode).
     */
    public function testEveryByteAtEveryPlaceIsAcceptedExactlyWhenTheTextIsCanonical(): void
    {
        $accepted = 0;
        $tried = 0;
        foreach (['QUJD', 'QUI', 'QQ', 'QUJDRA'] as $base) {
            for ($byte = 0; $byte < 256; $byte++) {
                for ($at = 0; $at <= strlen($base); $at++) {
                    foreach ([substr_replace($base, chr($byte), $at, 0), $at < strlen($base) ? substr_replace($base, chr($byte), $at, 1) : null] as $text) {
                        if ($text === null) {
                            continue;
                        }
                        $tried++;
                        $canonical = self::canonical($text);
                        self::assertSame($canonical, self::decodes($text), json_encode($text) ?: bin2hex($text));
                        $accepted += (int) $canonical;
                    }
                }
            }
        }
        self::assertSame((9 + 7 + 5 + 13) * 256, $tried, 'each base: length + 1 places to insert, length to replace');
        self::assertGreaterThan(1000, $accepted, 'both answers are exercised');
    }

    /** @return iterable<string, array{string}> */
    public static function refused(): iterable
    {
        yield 'a full group and a trailing space' => ['QUJD '];
        yield 'a full group and a trailing newline' => ["QUJD\n"];
        yield 'a full group and a tab inside it' => ["QU\tJD"];
        yield 'one padding character' => ['QUI='];
        yield 'two padding characters' => ['QQ=='];
        yield 'padding inside' => ['QQ==QUJD'];
        yield 'one character after full groups' => ['QUJDQ'];
        yield 'a single character' => ['Q'];
        yield 'the standard alphabet\'s +' => ['QUJ+'];
        yield 'the standard alphabet\'s /' => ['QUJ/'];
        yield 'a NUL byte' => ["QUJ\0"];
        yield 'a byte above 127' => ["QUJ\xc3"];
        yield 'non-zero bits after two characters' => ['QR'];
        yield 'non-zero bits after three characters' => ['QUJ'];
    }

    /** @dataProvider refused */
    #[DataProvider('refused')]
    public function testNonCanonicalTextIsRefusedNamingThePart(string $text): void
    {
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage('signature: expected canonical unpadded base64url (RFC 7515 section 2), got other characters, padding or non-zero trailing bits');
        Base64Url::decode($text, 'signature');
    }

    public function testThePartIsCalledValueUnlessNamed(): void
    {
        $this->expectExceptionMessage('value: expected canonical unpadded base64url');
        Base64Url::decode('Q');
    }

    /** @return iterable<string, array{string, string}> */
    public static function encodings(): iterable
    {
        yield 'nothing' => ['', ''];
        yield 'one byte: two characters, no padding' => ["\xff", '_w'];
        yield 'two bytes: three characters' => ["\xfb\xff", '-_8'];
        yield 'three bytes: four' => ["\xfb\xef\xbe", '----'];
        yield 'the RFC 7515 appendix C example' => ["\x03\xec\xff\xe0\x01", 'A-z_4AE'];
    }

    /** @dataProvider encodings */
    #[DataProvider('encodings')]
    public function testEncodingUsesTheUrlAlphabetWithoutPaddingAndDecodesBack(string $bytes, string $text): void
    {
        self::assertSame($text, Base64Url::encode($bytes));
        self::assertSame($bytes, Base64Url::decode($text));
    }

    public function testEveryCharacterOfTheAlphabetDecodesInAFullGroup(): void
    {
        foreach (str_split(self::ALPHABET) as $character) {
            self::assertSame(3, strlen(Base64Url::decode('AAA' . $character)), $character);
        }
    }
}
