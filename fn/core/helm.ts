/**
 * What Helm writes on the documents it hands a post-renderer, read in more than one layer (the
 * engine files an added object with its target; job-sidecar-quit tells Helm 4's stream from
 * `helm template` output).
 */

/**
 * Helm 4 marks every document it hands a post-renderer with the template file it came from,
 * regroups the output by it, then strips it (`filenameAnnotation`, annotateAndMerge and
 * splitAndDeannotate, pkg/action/action.go@v4.0.0).
 */
export const HELM4_POSTRENDER_FILENAME = 'postrenderer.helm.sh/postrender-filename';
