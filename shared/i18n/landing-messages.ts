import type { Catalogue } from "./locale";

// What the landing page (/v/{slug}, /v/{slug}/{token}) says in Reelbind's own words: the
// consent banner, the unavailable notice and the no-JavaScript hint. The share's title,
// subtitle and CTA label are the customer's and are shown as written.

export type LandingMessageId =
  | "consentLabel"
  | "consentText"
  | "consentDecline"
  | "consentAccept"
  | "unavailableTitle"
  | "unavailableHeading"
  | "unavailableText"
  | "noscript";

export const landingMessages: Catalogue<LandingMessageId> = {
  en: {
    consentLabel: "Analytics consent",
    consentText: "May we measure how this video is watched (plays, progress, clicks)? Nothing is sent unless you accept.",
    consentDecline: "Decline",
    consentAccept: "Accept",
    unavailableTitle: "Video unavailable",
    unavailableHeading: "This video is not available",
    unavailableText: "The link may have expired or been switched off by its owner.",
    noscript: "Turn on JavaScript to watch this video.",
  },
  de: {
    consentLabel: "Einwilligung zur Analyse",
    consentText: "Dürfen wir messen, wie dieses Video angesehen wird (Wiedergaben, Fortschritt, Klicks)? Es wird nichts übertragen, solange Sie nicht zustimmen.",
    consentDecline: "Ablehnen",
    consentAccept: "Zustimmen",
    unavailableTitle: "Video nicht verfügbar",
    unavailableHeading: "Dieses Video ist nicht verfügbar",
    unavailableText: "Der Link ist möglicherweise abgelaufen oder wurde von seinem Inhaber deaktiviert.",
    noscript: "Aktivieren Sie JavaScript, um dieses Video anzusehen.",
  },
  fr: {
    consentLabel: "Consentement à la mesure d’audience",
    consentText: "Pouvons-nous mesurer la façon dont cette vidéo est regardée (lectures, progression, clics) ? Rien n’est envoyé sans votre accord.",
    consentDecline: "Refuser",
    consentAccept: "Accepter",
    unavailableTitle: "Vidéo indisponible",
    unavailableHeading: "Cette vidéo n’est pas disponible",
    unavailableText: "Le lien a peut-être expiré ou a été désactivé par son propriétaire.",
    noscript: "Activez JavaScript pour regarder cette vidéo.",
  },
  es: {
    consentLabel: "Consentimiento de analítica",
    consentText: "¿Podemos medir cómo se ve este vídeo (reproducciones, progreso, clics)? No se envía nada si no lo aceptas.",
    consentDecline: "Rechazar",
    consentAccept: "Aceptar",
    unavailableTitle: "Vídeo no disponible",
    unavailableHeading: "Este vídeo no está disponible",
    unavailableText: "Es posible que el enlace haya caducado o que su propietario lo haya desactivado.",
    noscript: "Activa JavaScript para ver este vídeo.",
  },
  "pt-BR": {
    consentLabel: "Consentimento de análise",
    consentText: "Podemos medir como este vídeo é assistido (reproduções, progresso, cliques)? Nada é enviado a menos que você aceite.",
    consentDecline: "Recusar",
    consentAccept: "Aceitar",
    unavailableTitle: "Vídeo indisponível",
    unavailableHeading: "Este vídeo não está disponível",
    unavailableText: "O link pode ter expirado ou ter sido desativado pelo proprietário.",
    noscript: "Ative o JavaScript para assistir a este vídeo.",
  },
  it: {
    consentLabel: "Consenso alle statistiche",
    consentText: "Possiamo misurare come viene guardato questo video (riproduzioni, avanzamento, clic)? Non viene inviato nulla se non accetti.",
    consentDecline: "Rifiuta",
    consentAccept: "Accetta",
    unavailableTitle: "Video non disponibile",
    unavailableHeading: "Questo video non è disponibile",
    unavailableText: "Il link potrebbe essere scaduto o essere stato disattivato dal proprietario.",
    noscript: "Attiva JavaScript per guardare questo video.",
  },
  nl: {
    consentLabel: "Toestemming voor statistieken",
    consentText: "Mogen we meten hoe deze video wordt bekeken (weergaven, voortgang, klikken)? Er wordt niets verstuurd tenzij je akkoord gaat.",
    consentDecline: "Weigeren",
    consentAccept: "Accepteren",
    unavailableTitle: "Video niet beschikbaar",
    unavailableHeading: "Deze video is niet beschikbaar",
    unavailableText: "De link is mogelijk verlopen of door de eigenaar uitgeschakeld.",
    noscript: "Schakel JavaScript in om deze video te bekijken.",
  },
  ja: {
    consentLabel: "アクセス解析への同意",
    consentText: "この動画の視聴状況（再生、進捗、クリック）を計測してもよろしいですか？同意いただくまで、何も送信されません。",
    consentDecline: "拒否する",
    consentAccept: "同意する",
    unavailableTitle: "動画を利用できません",
    unavailableHeading: "この動画はご利用いただけません",
    unavailableText: "リンクの有効期限が切れているか、所有者によって無効にされた可能性があります。",
    noscript: "この動画を視聴するには JavaScript を有効にしてください。",
  },
  ar: {
    consentLabel: "الموافقة على التحليلات",
    consentText: "هل تسمح لنا بقياس طريقة مشاهدة هذا الفيديو (مرات التشغيل والتقدّم والنقرات)؟ لن يُرسَل أي شيء ما لم توافق.",
    consentDecline: "رفض",
    consentAccept: "موافقة",
    unavailableTitle: "الفيديو غير متاح",
    unavailableHeading: "هذا الفيديو غير متاح",
    unavailableText: "ربما انتهت صلاحية الرابط أو أوقفه مالكه.",
    noscript: "فعّل JavaScript لمشاهدة هذا الفيديو.",
  },
};
