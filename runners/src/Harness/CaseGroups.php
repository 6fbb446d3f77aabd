<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/** Cases grouped by their values of some key columns: the groups a Sampler measures in rotation. */
final class CaseGroups
{
    /**
     * @param list<BenchCase> $cases
     * @param list<string> $by
     * @return list<list<int>> indices into $cases, grouped, in order of first appearance
     */
    public static function of(array $cases, array $by): array
    {
        $groups = [];
        foreach ($cases as $index => $case) {
            $values = array_intersect_key($case->key(), array_flip($by));
            ksort($values);
            $groups[json_encode($values, JSON_THROW_ON_ERROR)][] = $index;
        }
        return array_values($groups);
    }
}
