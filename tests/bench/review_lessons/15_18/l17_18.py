from fractions import Fraction as F
import itertools
# ---- lesson 17: lone piglet crossing turn (distance > 20), own recursion
def turn_dist(N):
    f=[F(0)]*(N+1)
    for d in range(1,N+1):
        s=F(0)
        for v,r in zip([1,2,3,4,1,3],[1,1,1,1,0,0]):
            if v<=d: s+=F(1,6)*(f[d-v] if r else (1 if d==v else 0))
        f[d]=s
    return f
L=20; td=turn_dist(L+1)
# distribution of position (capped at 21 = crossed) after t turns
pos={0:F(1)}; S=[F(1)]; P=[F(0)]
for t in range(1,60):
    new={L+1:pos.get(L+1,F(0))}
    for x,p in pos.items():
        if x>L: continue
        rem=F(1)
        for d in range(1,L+1-x+1):
            if d<=L-x: new[x+d]=new.get(x+d,0)+p*td[d]; rem-=td[d]
        new[L+1]=new.get(L+1,0)+p*rem
    crossed=new.get(L+1,0); pos={x:p for x,p in new.items() if x<=L}; pos[L+1]=crossed
    S.append(1-crossed); P.append(S[t-1]-S[t])
print("lone mean turns",float(sum(S[:-1])))
def model(n):
    rounds=sum(S[t]**n for t in range(len(S)))   # E[R]=sum_{t>=0} P(R>t)
    seats=[sum(P[t]*S[t]**j*S[t-1]**(n-1-j) for t in range(1,len(S))) for j in range(n)]
    turns=n*(rounds-1)+sum((j+1)*p for j,p in enumerate(seats))
    return rounds,seats,turns
r,s,tu=model(4); print("n=4 rounds %.3f"%float(r),"seats",["%.3f"%float(x) for x in s],"sum",float(sum(s)))
for n in range(2,8): r,s,tu=model(n); print(n,"%.3f %.3f"%(float(r),float(tu)))
# leader's lead: T(2)-T(1) for 4 iid via joint: P(min=t, second=t+g)
n=4; T=len(S)-1
def cdf(t): return 1-S[t]
tie=sum( S[t-1]**n - S[t]**n - n*P[t]*S[t]**(n-1) for t in range(1,T+1))  # min=t and at least 2 at t
g1=sum(n*P[t]*(S[t]**(n-1)-S[t+1]**(n-1)) for t in range(1,T))  # exactly one at t, next at t+1
print("lead 0 %.4f, lead>1 %.4f"%(float(tie),float(1-tie-g1)))
ex=1-S[2]**5; print("ex1 5 piglets within 2 rounds",float(ex))
from meeple.widgets.exercises import check
print(check("17.first_by",ex))
# ---- lesson 18: matrix from rules, LP by enumeration
die=[-1,1,1,2,3,3]
def entry(lead,claim,guard):
    if claim==0 or claim==guard: end=[lead]
    else:
        end=[]
        for f in die:
            if f==-1: end.append(lead-2)          # victim takes one card from thief
            elif f>=claim: end.append(lead+2*claim)
            else: end.append(lead)
    return sum(F(1) if e>0 else F(1,2) if e==0 else F(0) for e in end)/len(end)
def solve(lead):
    A=[[entry(lead,c,g) for g in (1,2,3)] for c in (0,1,2,3)]
    # thief maximin over mixes: brute-force supports, solve equalising systems with Fractions
    from scipy.optimize import linprog
    c=[0,0,0,0,-1]; Aub=[[-float(A[i][g]) for i in range(4)]+[1] for g in range(3)]
    r=linprog(c,A_ub=Aub,b_ub=[0]*3,A_eq=[[1,1,1,1,0]],b_eq=[1],bounds=[(0,1)]*4+[(None,None)])
    mix=[F(x).limit_denominator(1000) for x in r.x[:4]]
    best=(min(sum(mix[i]*A[i][g] for i in range(4)) for g in range(3)),mix)
    return A,best
for lead in (-1,-2):
    A,(v,mix)=solve(lead); print("lead",lead,"matrix",[[str(e) for e in r] for r in A],"value",v,"thief mix",[str(m) for m in mix])
    print(" maximin",max(min(r) for r in A),"minimax",min(max(A[i][j] for i in range(4)) for j in range(3)))
A,_=solve(-1)
y=[F(19,31),F(11,31),F(1,31)]; print("victim mix vs claims",[str(sum(y[j]*A[i][j] for j in range(3))) for i in range(4)])
_,(v2,m2)=solve(-2)
print(check("18.value",v2),check("18.mix",tuple(m2)))
import meeple.widgets.exercises_15_18 as E; print(E.PARAMS["17"],E.PARAMS["18"])
