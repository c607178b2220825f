// The declarative category map of the models file, applied: each OpenAI category is scored as
// the max (or, where the map says so, the min) of the scores of the labels mapped to it, and
// flagged at its threshold. Several
// classifiers may back one model; a category mapped by more than one takes the max score and is
// flagged when any classifier's rule flags it. A category no classifier maps is uncovered: score
// 0, never flagged, applied to no input type — never invented. Pure functions.
import { MODERATION_CATEGORIES, type ModerationCategory } from '@tessera/contracts';
import type { CategoryMap } from './moderation-model.options';

/** One category's rule with its labels resolved to the classifier's output indices. */
export interface CategoryRule {
  readonly category: ModerationCategory;
  readonly labels: readonly number[];
  readonly combine: 'max' | 'min';
  readonly threshold: number;
}

/** One category of one result, as the proto's CategoryResult carries it. */
export interface CategoryVerdict {
  readonly category: ModerationCategory;
  readonly score: number;
  readonly flagged: boolean;
  readonly applied_input_types: string[];
}

/**
 * The rules of one classifier, its labels checked against the classifier's own (config.json
 * id2label): a label it does not have is an error at load time, naming `where`.
 */
export function resolveCategoryMap(
  map: CategoryMap,
  labels: readonly string[],
  where: string,
): CategoryRule[] {
  return MODERATION_CATEGORIES.flatMap((category) => {
    const rule = map[category];
    if (!rule) return [];
    const indices = rule.labels.map((label) => {
      const index = labels.indexOf(label);
      if (index < 0) {
        throw new Error(
          `${where}: category '${category}' maps label '${label}', which the classifier does ` +
            `not have (its labels: ${labels.join(', ')})`,
        );
      }
      return index;
    });
    return [{ category, labels: indices, combine: rule.combine, threshold: rule.threshold }];
  });
}

/** The categories none of the classifiers' rules scores, in OpenAI's order. */
export function uncoveredCategories(
  classifiers: readonly (readonly CategoryRule[])[],
): ModerationCategory[] {
  const covered = new Set(classifiers.flat().map((rule) => rule.category));
  return MODERATION_CATEGORIES.filter((category) => !covered.has(category));
}

/**
 * One input's verdict over all 13 categories, in OpenAI's order, from each classifier's label
 * scores (`scores[c]` indexed like classifier c's labels, `rules[c]` its rules).
 */
export function applyCategoryMap(
  scores: readonly ArrayLike<number>[],
  rules: readonly (readonly CategoryRule[])[],
): { flagged: boolean; categories: CategoryVerdict[] } {
  const categories = MODERATION_CATEGORIES.map((category): CategoryVerdict => {
    let score = 0;
    let flagged = false;
    let covered = false;
    rules.forEach((classifierRules, c) => {
      for (const rule of classifierRules) {
        if (rule.category !== category) continue;
        covered = true;
        const labelScores = rule.labels.map((label) => scores[c][label]);
        const ruleScore =
          rule.combine === 'min' ? Math.min(...labelScores) : Math.max(...labelScores);
        score = Math.max(score, ruleScore);
        flagged ||= ruleScore >= rule.threshold;
      }
    });
    return { category, score, flagged, applied_input_types: covered ? ['text'] : [] };
  });
  return { flagged: categories.some((category) => category.flagged), categories };
}
